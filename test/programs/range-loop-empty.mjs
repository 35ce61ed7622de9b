// expect: no race
// idiom: range-checked loops with no iteration (lo = hi, lo > hi) check nothing: b's empty loops over element 5
// do not race with a's unordered write of it.
import { float64Workers } from './sched.mjs';

function fill(a, lo, hi, v) {
  for (let j = lo; j < hi; j++) a[j] = v;
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 10);
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    shared[5] = 1;
  });
} else {
  at(1, () => {
    fill(shared, 5, 5, 2);
    fill(shared, 6, 2, 2);
  });
}
