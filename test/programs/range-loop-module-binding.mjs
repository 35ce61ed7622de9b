// expect: no race
// idiom: a red-black sweep over a module's top-level view (`let grid`, set once the thread has its buffer) and a
// module constant, its loops nested without braces: the inner loop is put in a block with its guard and takes the
// range check over the module's binding, as over a parameter. Each worker sweeps its own rows; the main thread reads
// them after the joins. Called before `grid` is declared (a function declaration is hoisted), the sweep throws a
// ReferenceError at its first access, as under plain node: the guard tests that the declaration ran first.
import { throwsOf, workers } from './sched.mjs';

const N = 16;

/** The elements of `colour` of rows [lo, hi): each from its row neighbours. */
function sweep(lo, hi, colour) {
  for (let i = lo; i < hi; i++)
    for (let j = 1 + ((i + colour) & 1); j < N - 1; j += 2)
      grid[i * N + j] = grid[i * N + j - 1] + grid[i * N + j + 1];
}

const early = throwsOf(() => sweep(0, 1, 0), ReferenceError);
if (!/grid/.test(early.message)) throw new Error(`unexpected ${early.message}`);
let grid;
const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * N * N)).fill(1),
}));
grid = a;
if (main) {
  await joined;
  // rows 0–7: worker 0's, 8–15: worker 1's; red then black: a red element 2, a black one 2 + 2
  for (const k of [1, 3 * N + 2, 12 * N + 3])
    if (grid[k] !== 2 && grid[k] !== 4) throw new Error(`grid[${k}] = ${grid[k]}`);
  if (grid[0] !== 1 || grid[N - 1] !== 1) throw new Error('a border element was written');
} else {
  at(i, () => {
    sweep(8 * i, 8 * i + 8, 0);
    sweep(8 * i, 8 * i + 8, 1);
  });
}
