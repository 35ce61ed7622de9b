// expect: no race
// idiom: a loop calling a pure function of the module (IDEA's multiplication modulo 65537) takes a range check:
// b scales elements 0-7 through it while a writes elements 8-15, unordered, so nothing races.
import { workers } from './sched.mjs';

/** IDEA multiplication modulo 65537, 0 standing for 65536. */
function mul(a, b) {
  if (a === 0) return (0x10001 - b) & 0xffff;
  if (b === 0) return (0x10001 - a) & 0xffff;
  return ((a * b) % 0x10001) & 0xffff;
}

/** a[j] = mul(a[j], key) for j in [lo, hi). */
function scale(a, lo, hi, key) {
  for (let j = lo; j < hi; j++) a[j] = mul(a[j], key);
}

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => {
  const shared = new Float64Array(new SharedArrayBuffer(128));
  for (let k = 0; k < 16; k++) shared[k] = k * 4099;
  return { shared };
});
if (main) {
  await joined;
  console.log(`elements after the joins: ${[...shared].join(',')}`);
} else if (i === 0) {
  at(0, () => scale(shared, 8, 16, 1));
} else {
  at(1, () => scale(shared, 0, 8, 40503));
}
