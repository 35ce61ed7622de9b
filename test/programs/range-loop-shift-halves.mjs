// expect: no race
// idiom: range-checked loops that read and write the same elements (a[j] += a[j+1]), each worker on its
// own half (elements 0-32 and 36-68): the elements read and written are checked as writes, the last one read as a
// read (`src/live/spans.ts`); the main thread checks the result after the joins.
import { workers } from './sched.mjs';

/** Adds to each of a[lo..hi) the element after it. */
function shift(a, lo, hi) {
  for (let j = lo; j < hi; j++) a[j] += a[j + 1];
}

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => {
  const a = new Float64Array(new SharedArrayBuffer(8 * 72));
  for (let k = 0; k < a.length; k++) a[k] = k;
  return { a };
});
if (main) {
  await joined;
  for (const k of [0, 31, 36, 67]) if (a[k] !== 2 * k + 1) throw new Error(`a[${k}] = ${a[k]}`);
  for (const k of [32, 68]) if (a[k] !== k) throw new Error(`a[${k}] = ${a[k]}`);
} else {
  at(i, () => shift(a, 36 * i, 36 * i + 32));
}
