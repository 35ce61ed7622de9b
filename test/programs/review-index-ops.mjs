// expect: race
// idiom: indices that are not affine in the loop variable (`j % 4`, `(j >> 1) | 0`, `j | 0`): their loops are checked
// access by access. Worker 1 reads elements 0-3 (`%`), 0-5 (`>>`, `|0`) and 8-11 (`|0`); worker 0 wrote elements 5
// and 7 unordered with it: the read of element 5 races, element 7 is never read.
import { twoSteps } from './sched.mjs';

/** Sums over `a` by three index expressions. */
function mixed(a, n) {
  let s = 0;
  for (let j = 0; j < 4 * n; j++) s += a[j % 4];
  for (let j = 0; j < 3 * n; j++) s += a[(j >> 1) | 0]; // race
  for (let j = 8; j < 8 + 2 * n; j++) s += a[j | 0];
  return s;
}

await twoSteps(
  import.meta.url,
  16,
  (a) => {
    a[5] = 1; // race
    a[7] = 1;
  },
  (a) => {
    console.log(`sum ${mixed(a, 4)}`);
  },
);
