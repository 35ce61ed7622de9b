// expect: no race
// idiom: loops in closures over the variables of the function around them: a red-black sweep declared in `relax`
// over its `grid`, `n` and `omega` (a worker's `function sweep(colour)` nested in its main function), and an arrow
// passed to `forEach` halving rows bounded by the enclosing function's parameter `m`; each worker its own rows,
// reading the rows next to them, which the other worker does not write: the inner loops take the range check,
// `grid` and `n` tested by `Hooks.declared` as they are entered. The main thread checks the result after the joins
// against the same sweeps in one thread.
import { workers } from './sched.mjs';

const N = 32;

/** Sweeps rows [lo, hi) of `a` (N×N) in both colours, then halves rows `halved` but their first and last elements. */
function relax(a, lo, hi, halved) {
  const grid = a;
  const n = N;
  const omega = 1.25;
  function sweep(colour) {
    for (let i = lo; i < hi; i++)
      for (let j = 1 + ((i + colour) & 1); j < n - 1; j += 2)
        grid[i * n + j] =
          (omega / 4) * (grid[i * n + j - 1] + grid[i * n + j + 1] + grid[(i - 1) * n + j]) +
          (1 - omega) * grid[i * n + j];
  }
  sweep(0);
  sweep(1);
  halve(
    halved.map((r) => grid.subarray(r * n, (r + 1) * n)),
    n,
  );
}

/** Halves the elements of each row of `rows` (views of m elements), but its first and last. */
function halve(rows, m) {
  rows.forEach((row) => {
    for (let j = 1; j < m - 1; j++) row[j] = row[j] / 2;
  });
}

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * N * N)).fill(1),
}));
if (main) {
  await joined;
  // the same sweeps on a copy of the start, in one thread: the workers' rows do not meet (row 8 is only read)
  const c = new Float64Array(N * N).fill(1);
  for (const w of [0, 1]) relax(c, 1 + 8 * w, 8 + 8 * w, [2 + 8 * w, 3 + 8 * w]);
  for (let k = 0; k < N * N; k++) if (a[k] !== c[k]) throw new Error(`a[${k}] = ${a[k]}, not ${c[k]}`);
  if (a[N + 2] === 1) throw new Error('nothing was swept');
} else {
  at(i, () => relax(a, 1 + 8 * i, 8 + 8 * i, [2 + 8 * i, 3 + 8 * i]));
}
