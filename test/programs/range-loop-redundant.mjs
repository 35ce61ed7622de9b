// expect: no race
// idiom: range-checked loops with conditional reads of elements the iteration already read (RedCard's redundant
// checks): each worker searches its half of a for its maximum (`if (a[j] > m) { m = a[j]; ... }`) and copies it into
// its half of b with a NaN guard (`Number.isNaN(a[j]) ? 0 : a[j]`), one range check per loop; the main thread checks
// b after the joins.
import { workers } from './sched.mjs';

/** The largest element of v[from..to) and its index. */
function max(v, from, to) {
  let m = -Infinity;
  let at = -1;
  for (let j = from; j < to; j++)
    if (v[j] > m) {
      m = v[j];
      at = j;
    }
  return [m, at];
}

/** b[j] = v[j], or 0 where v[j] is NaN, for j in [from, to). */
function clean(v, b, from, to) {
  for (let j = from; j < to; j++) b[j] = Number.isNaN(v[j]) ? 0 : v[j];
}

const { main, joined, i, at, a, b } = workers(import.meta.url, 2, () => ({
  a: Object.assign(
    new Float64Array(new SharedArrayBuffer(8 * 64)),
    [...Array(64).keys()].map((k) => (k % 7 === 3 ? Number.NaN : (k * 37) % 64)),
  ),
  b: new Float64Array(new SharedArrayBuffer(8 * 64)),
}));
if (main) {
  await joined;
  const sum = b.reduce((s, x) => s + x, 0);
  const expected = a.reduce((s, x) => s + (Number.isNaN(x) ? 0 : x), 0);
  if (sum !== expected) throw new Error(`sum ${sum}, expected ${expected}`);
} else {
  at(i, () => {
    const [m, k] = max(a, 32 * i, 32 * i + 32);
    if (a[k] !== m || m !== Math.max(...[...a.subarray(32 * i, 32 * i + 32)].filter((x) => !Number.isNaN(x))))
      throw new Error(`worker ${i}: max ${m} at ${k}`);
    clean(a, b, 32 * i, 32 * i + 32);
  });
}
