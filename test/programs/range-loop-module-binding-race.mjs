// expect: race
// idiom: a range-checked loop over a module's top-level `const` view, nested without braces (see
// range-loop-module-binding.mjs), racing: worker a writes element 40 unordered; worker b's loop over rows 2–3 reads
// it: the range check would report a race, so the loop runs its per-access checks, which throw there under
// --on-race=throw, after the elements before it were summed.
import { stopsAtElement40, workers } from './sched.mjs';

const N = 16;
const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 72)).fill(1),
}));
const sums = new Float64Array(4);

/** sums[r] = the sum of row r's elements, for r in [lo, hi). */
function rows(lo, hi) {
  for (let r = lo; r < hi; r++) for (let j = 0; j < N; j++) sums[r] += a[r * N + j]; // race
}

await stopsAtElement40(
  { main, joined, i, at },
  () => {
    a[40] = 5; // race
  },
  () => rows(2, 4),
  () => sums[2],
  8,
);
