// expect: race
// idiom: a range-checked loop over a row of an array of row views (`g[r][j]`, see range-loop-row-views.mjs), racing: worker
// a writes element 40 (row 2, element 8) unordered; worker b's loop over row 2 reads it: the range check would report
// a race, so the loop runs its per-access checks, which throw there under --on-race=throw, after the elements before
// it were summed.
import { stopsAtElement40, workers } from './sched.mjs';

const N = 16;
const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 4 * N)).fill(1),
}));
const g = Array.from({ length: 4 }, (_, r) => a.subarray(r * N, r * N + N));
let sum = 0;

/** Adds row r's elements to sum. */
function add(r) {
  for (let j = 0; j < N; j++) sum += g[r][j]; // race
}

await stopsAtElement40(
  { main, joined, i, at },
  () => {
    a[40] = 5; // race
  },
  () => add(2),
  () => sum,
  8,
);
