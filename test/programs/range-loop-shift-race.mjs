// expect: race
// idiom: a range-checked loop that reads and writes the same elements (a[j] += a[j+1]) races with another
// worker's unordered write of element 5: the loop's first access of element 5 is its read (at j = 4), which races;
// its write (at j = 5) races too. The range check decides element 5 by its write alone (`src/live/spans.ts`), falls
// back, and the per-access checks report the read, as they do without range checks.
import { workers } from './sched.mjs';

/** Adds to each of a[lo..hi) the element after it. */
function shift(a, lo, hi) {
  for (let j = lo; j < hi; j++) a[j] += a[j + 1]; // race
}

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Float64Array(new SharedArrayBuffer(8 * 64)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    shared[5] = 1; // race
  });
} else {
  at(1, () => shift(shared, 0, 40));
}
