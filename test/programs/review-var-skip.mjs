// expect: no race
// idiom: a loop that may `continue`, whose variable is a `var` that a closure of the function assigns, forward:
// worker 1 loops over elements 0-7, its property write at element 1 running a setter that moves the loop variable to
// 5, so that the loop skips elements 2-5: worker 0's write of element 3, unordered with it, is no race.
import { twoSteps } from './sched.mjs';

/** The sum of a[lo..hi), the loop variable moved to 5 at element 1 when `skip`; `box.at` written at each. */
function scan(a, lo, hi, skip) {
  let s = 0;
  const box = {
    set at(v) {
      if (skip && v === 1) {
        skip = false;
        j = 5;
      }
    },
  };
  // biome-ignore lint/correctness/noInnerDeclarations: the point of the program (a `var` a closure assigns)
  for (var j = lo; j < hi; j++) {
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
    a[3] = 1;
  },
  (a) => {
    const s = scan(a, 0, 8, true);
    console.log(`sum ${s}`);
  },
);
