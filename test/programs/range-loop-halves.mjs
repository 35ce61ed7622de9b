// expect: no race
// idiom: range-checked loops on disjoint halves: each worker relaxes the interior of its half (a stencil reading
// its half's borders too: elements 0-32 and 33-65), the main thread sums after the joins.
import { workers } from './sched.mjs';

/** Averages a[lo..hi) with their neighbours, reading a[lo-1] and a[hi]. */
function relax(a, b, lo, hi) {
  for (let j = lo; j < hi; j++) b[j] = (a[j - 1] + a[j] + a[j + 1]) / 3;
  for (let j = lo; j < hi; j++) a[j] += b[j] - a[j];
}

function sum(a, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += a[j];
  return s;
}

const { main, joined, i, at, a, b } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 66)).fill(1),
  b: new Float64Array(new SharedArrayBuffer(8 * 66)),
}));
if (main) {
  await joined;
  if (Math.abs(sum(a, 66) - 66) > 1e-9) throw new Error(`sum ${sum(a, 66)}`);
} else {
  at(i, () => relax(a, b, 1 + 33 * i, 32 + 33 * i));
}
