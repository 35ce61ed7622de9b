// expect: race
// idiom: review-unrolled-lanes.mjs, racing: worker 0 writes byte 6 of block 2, which worker 1's loop reads in the
// last iteration of its unrolled inner loop (r = 3) of its third block: the range check would report the race, so the
// loop runs its per-access checks, which find it there.
import { workers } from './sched.mjs';

/** Per block of `t` in [lo, hi), the sum of its even bytes, into `out`. */
function evens(t, out, lo, hi) {
  for (let blk = lo; blk < hi; blk++) {
    let x = 0;
    for (let r = 0; r < 4; r++) x += t[8 * blk + 2 * r]; // race
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
    t[8 * 2 + 6] = 9; // race
  });
} else {
  at(1, () => {
    evens(t, out, 0, 8);
  });
}
