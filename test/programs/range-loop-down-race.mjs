// expect: race
// idiom: a loop going down (`for (let j = n - 1; j >= 0; j--)`) that races: b's loop writes elements 19 down to 0
// after a's unordered write of element 11. Under --on-race=throw the exception comes at element 11: elements 19-12
// are written, 11 is a's, 10-0 untouched.
import { peekFloat64, thrownLeaving, twoSteps } from './sched.mjs';

/** Writes `v` into a[n - 1], a[n - 2], …, a[0]. */
function fillDown(a, n, v) {
  for (let j = n - 1; j >= 0; j--) a[j] = v; // race
}

await twoSteps(
  import.meta.url,
  20,
  (a) => {
    a[11] = 1; // race
  },
  (a) =>
    thrownLeaving(
      () => fillDown(a, 20, 2),
      () => peekFloat64(a).join(','),
      '0,0,0,0,0,0,0,0,0,0,0,1,2,2,2,2,2,2,2,2',
      'thrown at element 11, before its write',
    ),
);
