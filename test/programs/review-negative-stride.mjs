// expect: no race
// idiom: loops that walk down (negative coefficients of the loop variable): worker 1 reads bytes 63 down to 44 of a
// Uint8Array (a range check of stride -1 over byte elements) and every third element of a Float64Array from 30 down
// (a covered loop that stops early, strided: checked against the filter from its second run on); worker 0 wrote byte
// 43 (in a word the first loop reads, not one of its bytes) and elements 28 and 29 (never reached by the second loop),
// unordered with both.
import { workers } from './sched.mjs';

/** The sum of the bytes [top - n, top) of `u`, from the top down. */
function down(u, top, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += u[top - 1 - j];
  return s;
}

/** The sum of `a[top - 3 * j]` for j < n, stopping at the first negative element. */
function strided(a, top, n) {
  let s = 0;
  for (let j = 0; j < n; j++) {
    const x = a[top - 3 * j];
    if (x < 0) break;
    s += x;
  }
  return s;
}

const { main, joined, i, at, u, a } = workers(import.meta.url, 2, () => ({
  u: new Uint8Array(new SharedArrayBuffer(64)),
  a: new Float64Array(new SharedArrayBuffer(8 * 32)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    u[43] = 1;
    a[28] = 2;
    a[29] = 2;
  });
} else {
  at(1, () => {
    let s = down(u, 64, 20);
    for (let k = 0; k < 4; k++) s += strided(a, 30, 10);
    if (s !== 0) throw new Error(`sum ${s}`);
  });
}
