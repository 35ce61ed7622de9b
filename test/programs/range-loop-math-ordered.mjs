// expect: no race
// idiom: a range-checked loop calling Math.abs and Math.max (lufact's pivot search) over elements the main thread
// wrote before starting the worker: the range check records the reads, and the main thread reads them after the
// join.
import { workers } from './sched.mjs';

/** The index of the element of a[lo..hi) of the largest magnitude (the first of equal ones). */
function pivot(a, lo, hi) {
  let max = -1;
  let l = lo;
  for (let j = lo; j < hi; j++) {
    const v = Math.max(Math.abs(a[j]), 0);
    if (v > max) {
      max = v;
      l = j;
    }
  }
  return l;
}

const { main, joined, shared, out } = workers(import.meta.url, 1, () => {
  const shared = new Float64Array(new SharedArrayBuffer(80));
  for (let k = 0; k < 10; k++) shared[k] = k % 3 === 0 ? -k : k / 2;
  return { shared, out: new Int32Array(new SharedArrayBuffer(4)) };
});
if (main) {
  await joined;
  if (out[0] !== 9 || shared[9] !== -9) throw new Error(`pivot ${out[0]}`);
} else {
  out[0] = pivot(shared, 0, 10);
}
