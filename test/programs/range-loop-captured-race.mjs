// expect: race
// idiom: a range-checked loop in a function nested in another, over that function's `grid` and `n` (see
// range-loop-captured.mjs), racing: worker a writes element 40 (row 2, element 8) unordered; worker b's nested
// function summing row 2 reads it: the range check would report a race, so the loop runs its per-access checks,
// which throw there under --on-race=throw, after the elements before it were summed.
import { stopsAtElement40, workers } from './sched.mjs';

const N = 16;
const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 4 * N)).fill(1),
}));

let sum = 0;

/** Sums row r of `a` (rows of N elements) into sum. */
function sumRow(a, r) {
  const grid = a;
  const n = N;
  function add() {
    for (let j = 0; j < n; j++) sum += grid[r * n + j]; // race
  }
  add();
}

await stopsAtElement40(
  { main, joined, i, at },
  () => {
    a[40] = 5; // race
  },
  () => sumRow(a, 2),
  () => sum,
  8,
);
