// expect: no race
// idiom: review-index-ops.mjs without the race: worker 0 writes only element 7, which none of worker 1's loops (indices
// `j % 4`, `(j >> 1) | 0`, `j | 0`, checked access by access) reads.
import { workers } from './sched.mjs';

/** Sums over `a` by three index expressions. */
function mixed(a, n) {
  let s = 0;
  for (let j = 0; j < 4 * n; j++) s += a[j % 4];
  for (let j = 0; j < 3 * n; j++) s += a[(j >> 1) | 0];
  for (let j = 8; j < 8 + 2 * n; j++) s += a[j | 0];
  return s;
}

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 16)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    a[7] = 1;
  });
} else {
  at(1, () => {
    console.log(`sum ${mixed(a, 4)}`);
  });
}
