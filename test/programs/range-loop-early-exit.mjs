// expect: no race
// idiom: a loop that may stop early (break) is checked access by access: b's loop over 0-15 stops at element 4 and
// never reaches element 8, which a writes unordered with it.
import { workers } from './sched.mjs';

/** The sum of a[0..n), stopping at the first element above `limit`. */
function sumUpTo(a, n, limit) {
  let s = 0;
  for (let j = 0; j < n; j++) {
    if (a[j] > limit) break;
    s += a[j];
  }
  return s;
}

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => {
  const shared = new Float64Array(new SharedArrayBuffer(128));
  shared[4] = 10;
  return { shared };
});
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    shared[8] = 1;
  });
} else {
  at(1, () => {
    if (sumUpTo(shared, 16, 5) !== 0) throw new Error('sum');
  });
}
