// expect: race
// idiom: a range-checked loop that races: b's loop writes elements 0-9 after a's unordered write of element 5.
// Under --on-race=throw the exception comes at element 5 of the loop: elements 0-4 are written, 5 is a's.
import { peekFloat64, thrownLeaving, twoSteps } from './sched.mjs';

/** Writes `v` into a[lo..hi). */
function fill(a, lo, hi, v) {
  for (let j = lo; j < hi; j++) a[j] = v; // race
}

await twoSteps(
  import.meta.url,
  10,
  (a) => {
    a[5] = 1; // race
  },
  (a) =>
    thrownLeaving(
      () => fill(a, 0, 10, 2),
      () => peekFloat64(a).join(','),
      '2,2,2,2,2,1,0,0,0,0',
      'thrown at element 5, before its write',
    ),
);
