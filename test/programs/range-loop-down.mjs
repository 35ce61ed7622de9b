// expect: no race
// idiom: loops going down (`for (let j = n - 1; j >= 0; j--)`, `j -= 2`), as a back substitution or a reversal is
// written: each worker adds to each element of its own half of a Float64Array the one below it, from its top down,
// then clears every second element of it going down by two. No race: the halves are disjoint. The main thread checks after the joins.
import { workers } from './sched.mjs';

/** a[j] += a[j - 1] for j from hi - 1 down to lo + 1 (each element read before it is written). */
function addBelow(a, lo, hi) {
  for (let j = hi - 1; j >= lo + 1; j--) a[j] = a[j] + a[j - 1];
}

/** Zeroes a[j] for j = hi - 1, hi - 3, … above lo. */
function clearEverySecond(a, lo, hi) {
  for (let j = hi - 1; j > lo; j -= 2) a[j] = 0;
}

const N = 32;
const { main, joined, i, a } = workers(import.meta.url, 2, () => {
  const a = new Float64Array(new SharedArrayBuffer(8 * N));
  for (let k = 0; k < N; k++) a[k] = k;
  return { a };
});
if (main) {
  await joined;
  console.log(`after the joins: ${[...a].join(',')}`);
} else {
  addBelow(a, (i * N) / 2, ((i + 1) * N) / 2);
  clearEverySecond(a, (i * N) / 2, ((i + 1) * N) / 2);
}
