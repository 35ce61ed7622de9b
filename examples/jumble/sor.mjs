// SOR of Jumble's evaluation (Java Grande `sor`, PLDI 2010 §6.1): red-black successive over-relaxation split
// between 2 workers, synchronized by a hand-made barrier on plain array elements (`sync[me]++; while
// (sync[other] < sync[me]);`). The barrier orders the phases in every sequentially consistent run, but plain
// accesses create no happens-before (ECMA-262 "Memory Model"), so a read of the neighbour's boundary cell may
// legally return its value from an earlier phase: the result differs from the sequential one and the program's
// own validation fails — destructive.
//   node examples/jumble/sor.mjs            → sor checksum 6.72218722
import { workers } from '../../test/programs/sched.mjs';

const N = 8; // interior cells 1..N, boundaries 0 and N + 1
const ITERATIONS = 4;
const OMEGA = 1.25;
const init = (g) => g.forEach((_, k) => (g[k] = k === 0 || k === N + 1 ? 1 : 0));

/** One red-black SOR sweep of the cells lo..hi of `g` for colour `c` (0 red, 1 black). */
function sweep(g, lo, hi, c) {
  for (let k = lo; k <= hi; k++) if (k % 2 === c) g[k] = (1 - OMEGA) * g[k] + (OMEGA / 2) * (g[k - 1] + g[k + 1]);
}

const { main, joined, i, grid, sync } = workers(import.meta.url, 2, () => {
  const grid = new Float64Array(new SharedArrayBuffer(8 * (N + 2)));
  init(grid);
  return { grid, sync: new Int32Array(new SharedArrayBuffer(8)) };
});

if (main) {
  await joined;
  const expected = new Float64Array(N + 2);
  init(expected);
  for (let t = 0; t < 2 * ITERATIONS; t++) sweep(expected, 1, N, t % 2);
  if (grid.some((v, k) => v !== expected[k])) throw new Error(`SOR validation failed: ${grid} ≠ ${expected}`);
  console.log(`sor checksum ${grid.reduce((a, b) => a + b).toFixed(8)}`);
} else {
  const [lo, hi] = i === 0 ? [1, N / 2] : [N / 2 + 1, N];
  for (let t = 0; t < 2 * ITERATIONS; t++) {
    sweep(grid, lo, hi, t % 2);
    sync[i]++; // the hand-made barrier
    while (sync[1 - i] < sync[i]);
  }
}
