// expect: no race
// idiom: byte and 16-bit views over one buffer at offsets that are not multiples of 8: worker 1's range-checked loops
// read bytes 3-15 through a Uint8Array at offset 3 and bytes 6-15 through an Int16Array at offset 6, and write bytes
// 17-23 through a Uint8Array at offset 17; worker 0, unordered with them, wrote bytes 0-2 and byte 16: bytes of the
// words worker 1's loops touch, but none of their bytes.
import { workers } from './sched.mjs';

/** The sum of the elements [0, n) of `v`. */
function sum(v, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += v[j];
  return s;
}

/** Writes `x` into the elements [0, n) of `v`. */
function fill(v, n, x) {
  for (let j = 0; j < n; j++) v[j] = x;
}

const { main, joined, i, at, data } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(32),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    const head = new Uint8Array(data, 0, 3);
    for (let k = 0; k < 3; k++) head[k] = 7;
    new Uint8Array(data)[16] = 1;
  });
} else {
  at(1, () => {
    const bytes = new Uint8Array(data, 3, 13);
    const halves = new Int16Array(data, 6, 5);
    if (sum(bytes, bytes.length) !== 0 || sum(halves, halves.length) !== 0) throw new Error('sum');
    fill(new Uint8Array(data, 17, 7), 7, 5);
  });
}
