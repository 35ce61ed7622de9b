// expect: no race
// idiom: range-checked for…of loops over shared Float64Arrays (one range check for the loop instead of a check per
// element read by the iterator): each worker sums its own half of a (a subarray) and writes twice each element of it
// into its half of b through a counter (`b[c++] = 2 * x`); the main thread checks the sums after the joins.
import { workers } from './sched.mjs';

/** The sum of the elements of h. */
function sum(h) {
  let s = 0;
  for (const x of h) s += x;
  return s;
}

/** Writes 2 * h[k] into b[from + k] for each element of h. */
function doubled(h, b, from) {
  let c = from;
  for (let x of h) {
    x *= 2;
    b[c++] = x;
  }
}

const { main, joined, i, at, a, b } = workers(import.meta.url, 2, () => ({
  a: Object.assign(new Float64Array(new SharedArrayBuffer(8 * 64)), [...Array(64).keys()]),
  b: new Float64Array(new SharedArrayBuffer(8 * 64)),
}));
if (main) {
  await joined;
  const sums = [a, b].map((v) => v.reduce((s, x) => s + x, 0)).join(' ');
  if (sums !== `${63 * 32} ${63 * 64}`) throw new Error(`sums ${sums}`);
} else {
  at(i, () => {
    const h = a.subarray(32 * i, 32 * i + 32);
    const s = sum(h);
    if (s !== (32 * i + 32 * i + 31) * 16) throw new Error(`worker ${i}: sum ${s}`);
    doubled(h, b, 32 * i);
  });
}
