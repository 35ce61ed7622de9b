// expect: race
// idiom: a covered loop whose variable is a `var` that a closure of the function assigns: worker 1 reads elements
// 4-7 twice (covered from then on), then loops over 4-7 again, its property write at element 6 running a setter that
// sets the loop variable back to -1, so that the loop goes on over elements 0-7: the cover check of elements 4-7 says
// nothing of them, and its read of element 1, which worker 0 wrote unordered with it, races.
import { twoSteps } from './sched.mjs';

/** The sum of a[lo..hi), the loop variable set back to -1 at element 6 when `rewind`; `box.at` written at each. */
function scan(a, lo, hi, rewind) {
  let s = 0;
  const box = {
    set at(v) {
      if (rewind && v === 6) {
        rewind = false;
        j = -1;
      }
    },
  };
  // biome-ignore lint/correctness/noInnerDeclarations: the point of the program (a `var` a closure assigns)
  for (var j = lo; j < hi; j++) {
    if (a[j] < 0) continue; // race
    s += a[j];
    box.at = j;
  }
  return s;
}

await twoSteps(
  import.meta.url,
  8,
  (a) => {
    a[1] = 1; // race
  },
  (a) => {
    const s = scan(a, 4, 8, false) + scan(a, 4, 8, false) + scan(a, 4, 8, false) + scan(a, 4, 8, true);
    console.log(`sum ${s}`);
  },
);
