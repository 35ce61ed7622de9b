// expect: race
// idiom: a range-checked loop calling Math.abs (lufact's pivot search): b's loop reads elements 0-9 for the largest
// magnitude after a's unordered write of element 7; the range check finds the race, and the loop's per-access
// checks report it at element 7.
import { float64Workers } from './sched.mjs';

/** The index of the element of a[lo..hi) of the largest magnitude (the first of equal ones). */
function pivot(a, lo, hi) {
  let max = -1;
  let l = lo;
  for (let j = lo; j < hi; j++) {
    const v = Math.abs(a[j]); // race
    if (v > max) {
      max = v;
      l = j;
    }
  }
  return l;
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 10);
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    shared[7] = -3; // race
  });
} else {
  at(1, () => {
    if (pivot(shared, 0, 10) !== 7) throw new Error('expected the write of step 0');
  });
}
