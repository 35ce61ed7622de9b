// expect: no race
// idiom: crypt-like block loop over a Uint8Array whose literal inner loop (4 iterations, unrolled into the block
// loop's range check) reads the even bytes of each 8-byte block (lanes 0, 2, 4, 6 of a one-word stride): worker 0
// writes an odd byte of block 2 unordered with worker 1's loop, a byte of a word the loop reads but not one of its
// bytes.
import { workers } from './sched.mjs';

/** Per block of `t` in [lo, hi), the sum of its even bytes, into `out`. */
function evens(t, out, lo, hi) {
  for (let blk = lo; blk < hi; blk++) {
    let x = 0;
    for (let r = 0; r < 4; r++) x += t[8 * blk + 2 * r];
    out[blk] = x;
  }
}

const { main, joined, i, at, t, out } = workers(import.meta.url, 2, () => ({
  t: new Uint8Array(new SharedArrayBuffer(64)).fill(1),
  out: new Int32Array(new SharedArrayBuffer(32)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    t[8 * 2 + 5] = 9;
  });
} else {
  at(1, () => {
    evens(t, out, 0, 8);
    if (out[2] !== 4) throw new Error(`out[2] = ${out[2]}`);
  });
}
