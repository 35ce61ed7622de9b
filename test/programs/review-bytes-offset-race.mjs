// expect: race
// idiom: review-bytes-offset.mjs, racing: worker 1's Int16Array at offset 6 has 6 elements (bytes 6-17), so its
// range-checked loop reads byte 16, which worker 0 wrote unordered with it: the range check would report the race, so
// the loop runs its per-access checks, which find it at element 5.
import { workers } from './sched.mjs';

/** The sum of the elements [0, n) of `v`. */
function sum(v, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += v[j]; // race
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
    new Uint8Array(data)[16] = 1; // race
  });
} else {
  at(1, () => {
    const bytes = new Uint8Array(data, 3, 13);
    const halves = new Int16Array(data, 6, 6);
    console.log(`sums ${sum(bytes, bytes.length)} ${sum(halves, halves.length)}`);
    fill(new Uint8Array(data, 17, 7), 7, 5);
  });
}
