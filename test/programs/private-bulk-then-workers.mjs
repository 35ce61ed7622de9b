// expect: no race
// idiom: escape analysis: the main thread fills a fresh SharedArrayBuffer through subarrays, fill() and set() while it is private, then two workers write disjoint halves; the main thread reads after joining them.
import { workers } from './sched.mjs';

const { main, joined, i, data } = workers(import.meta.url, 2, () => {
  const data = new Float64Array(new SharedArrayBuffer(64 * 8));
  data.subarray(0, 32).fill(1);
  data.set(new Float64Array(32).fill(2), 32);
  for (let k = 0; k < data.length; k++) data[k] *= 3;
  return { data };
});
if (main) {
  await joined;
  if (data[0] !== 4 || data[63] !== 7) throw new Error(`saw ${data[0]}, ${data[63]}`);
} else {
  for (let k = 32 * i; k < 32 * (i + 1); k++) data[k] += 1;
}
