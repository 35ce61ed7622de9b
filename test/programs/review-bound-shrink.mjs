// expect: no race
// idiom: a loop that may `continue`, whose property write (an opaque operation) runs a setter that lowers its bound `n` through
// a closure: worker 1 loops to n = 8, its setter lowering n to 3 at element 0, so that the loop reads elements 0-2
// only: worker 0's write of element 6, unordered with it, is no race.
import { twoSteps } from './sched.mjs';

/** The sum of the first 8 elements of `a`, or of the first 3 when `shrink`; `box.at` written at each element. */
function scan(a, shrink) {
  let n = 8;
  const box = {
    set at(_j) {
      if (shrink) n = 3;
    },
  };
  let s = 0;
  for (let j = 0; j < n; j++) {
    if (a[j] < 0) continue;
    s += a[j];
    box.at = j;
  }
  return s;
}

await twoSteps(
  import.meta.url,
  8,
  (a) => {
    a[6] = 1;
  },
  (a) => {
    const s = scan(a, true);
    console.log(`sum ${s}`);
  },
);
