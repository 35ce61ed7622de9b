// expect: no race
// idiom: a loop indexing its output by a counter (out[k++]) takes a range check: b packs elements 0-7 of one buffer into
// 16-23 of another while a packs 8-15 into 24-31, unordered, so nothing races.
import { workers } from './sched.mjs';

/** Copies a[lo..hi) doubled to b[k..), returning the next free index. */
function pack(a, b, lo, hi, k) {
  let out = k;
  for (let j = lo; j < hi; j++) b[out++] = 2 * a[j];
  return out;
}

const { main, joined, i, at, src, dst } = workers(import.meta.url, 2, () => {
  const src = new Float64Array(new SharedArrayBuffer(128));
  for (let k = 0; k < 16; k++) src[k] = k;
  return { src, dst: new Float64Array(new SharedArrayBuffer(256)) };
});
if (main) {
  await joined;
  console.log(`elements after the joins: ${[...dst].join(',')}`);
} else if (i === 0) {
  at(0, () => console.log(`a's next: ${pack(src, dst, 8, 16, 24)}`));
} else {
  at(1, () => console.log(`b's next: ${pack(src, dst, 0, 8, 16)}`));
}
