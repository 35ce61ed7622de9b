// expect: no race
// idiom: range-checked loops bounded by the view's length: each worker scales its own half (a subarray view, the
// loop `j < h.length`) and fills its half of a second view to `b.length - 1`; the main thread sums after the joins.
import { workers } from './sched.mjs';

/** Doubles every element of h. */
function double(h) {
  for (let j = 0; j < h.length; j++) h[j] *= 2;
}

/** Writes k into b[1..b.length - 1). */
function inner(b, k) {
  for (let j = 1; j < b.length - 1; j++) b[j] = k;
}

const { main, joined, i, at, a, b } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 64)).fill(1),
  b: new Float64Array(new SharedArrayBuffer(8 * 64)),
}));
if (main) {
  await joined;
  const sums = [a, b].map((v) => v.reduce((s, x) => s + x, 0)).join(' ');
  if (sums !== `128 ${30 + 60}`) throw new Error(`sums ${sums}`);
} else {
  at(i, () => {
    double(a.subarray(32 * i, 32 * i + 32));
    inner(b.subarray(32 * i, 32 * i + 32), i + 1);
  });
}
