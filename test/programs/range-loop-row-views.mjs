// expect: no race
// idiom: a red-black sweep over a matrix held as an array of row views (`g[i][j]`, `g[i - 1][j]`: rows as
// Float64Array views of one buffer), each worker its own rows, reading the rows next to them, which the other worker
// does not write: the inner loop takes the range check, its rows read by `Hooks.row` as it is entered. The main
// thread checks the result after the joins against the same sweeps in one thread.
import { workers } from './sched.mjs';

const N = 16;

/** The elements of `colour` of rows [lo, hi) of g: each the mean of its row neighbours. */
function sweep(g, lo, hi, colour) {
  for (let i = lo; i < hi; i++)
    for (let j = 1 + ((i + colour) & 1); j < N - 1; j += 2)
      g[i][j] = 0.5 * (g[i][j - 1] + g[i][j + 1]) + g[i - 1][j];
}

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * N * N)).fill(1),
}));
const g = Array.from({ length: N }, (_, r) => a.subarray(r * N, r * N + N));
if (main) {
  await joined;
  // the same sweeps on a copy of the start, in one thread: the workers' rows do not meet (row 8 is only read)
  const c = new Float64Array(N * N).fill(1);
  const rows = Array.from({ length: N }, (_, r) => c.subarray(r * N, r * N + N));
  for (const w of [0, 1]) for (const colour of [0, 1]) sweep(rows, 1 + 8 * w, 8 + 8 * w, colour);
  for (let k = 0; k < N * N; k++) if (a[k] !== c[k]) throw new Error(`a[${k}] = ${a[k]}, not ${c[k]}`);
  if (a[N + 2] === 1) throw new Error('nothing was swept');
} else {
  at(i, () => {
    sweep(g, 1 + 8 * i, 8 + 8 * i, 0);
    sweep(g, 1 + 8 * i, 8 + 8 * i, 1);
  });
}
