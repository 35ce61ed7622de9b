// expect: no race
// idiom: a loop indexing through a const of its body (const k = j + off) takes a range check: b doubles elements
// 0-7 of one buffer into 16-23 of another while a doubles 8-15 into 24-31, unordered, so nothing races.
import { workers } from './sched.mjs';

/** b[j + off] = 2 * a[j] for j in [lo, hi). */
function doubleInto(a, b, lo, hi, off) {
  for (let j = lo; j < hi; j++) {
    const k = j + off;
    b[k] = 2 * a[j];
  }
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
  at(0, () => doubleInto(src, dst, 8, 16, 16));
} else {
  at(1, () => doubleInto(src, dst, 0, 8, 16));
}
