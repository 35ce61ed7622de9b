// expect: race
// idiom: a loop over every second element of a Float64Array (`j += 2`, a stride of two words) that races: b's loop
// writes the odd elements 1, 3, …, 19 after a's unordered write of element 11. Under --on-race=throw the exception
// comes at element 11: elements 1-9 are written, 11 is a's, the even elements are untouched.
import { peekFloat64, thrownLeaving, twoSteps } from './sched.mjs';

/** Writes `v` into the odd elements of a[0..n). */
function fillOdd(a, n, v) {
  for (let j = 1; j < n; j += 2) a[j] = v; // race
}

await twoSteps(
  import.meta.url,
  20,
  (a) => {
    a[11] = 1; // race
  },
  (a) =>
    thrownLeaving(
      () => fillOdd(a, 20, 2),
      () => peekFloat64(a).join(','),
      '0,2,0,2,0,2,0,2,0,2,0,1,0,0,0,0,0,0,0,0',
      'thrown at element 11, before its write',
    ),
);
