// expect: no race
// idiom: a loop calling a function that may throw is checked access by access: b's loop over elements 0-15 throws
// in its call at element 2 and never reaches element 8, which a writes unordered with it.
import { throwsOf, workers } from './sched.mjs';

/** x, or an exception above 5. */
function checked(x) {
  if (x > 5) throw new RangeError(`${x} above 5`);
  return x;
}

/** The sum of checked(a[j]) for j in [0, n). */
function sumChecked(a, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += checked(a[j]);
  return s;
}

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => {
  const shared = new Float64Array(new SharedArrayBuffer(128));
  shared[2] = 10;
  return { shared };
});
if (main) {
  await joined;
} else if (i === 0) {
  at(1, () => {
    shared[8] = 1;
  });
} else {
  at(0, () => {
    console.log(`thrown: ${throwsOf(() => sumChecked(shared, 16), RangeError).message}`);
  });
}
