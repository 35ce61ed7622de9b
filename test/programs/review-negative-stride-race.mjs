// expect: race
// idiom: review-negative-stride.mjs, racing: worker 1's range-checked loop reads bytes 63 down to 44 of a Uint8Array
// (stride -1 over byte elements), and worker 0 wrote byte 44, the loop's last, unordered with it: the range check
// would report the race, so the loop runs its per-access checks, which find it in its last iteration.
import { workers } from './sched.mjs';

/** The sum of the bytes [top - n, top) of `u`, from the top down. */
function down(u, top, n) {
  let s = 0;
  for (let j = 0; j < n; j++) s += u[top - 1 - j]; // race
  return s;
}

const { main, joined, i, at, u } = workers(import.meta.url, 2, () => ({
  u: new Uint8Array(new SharedArrayBuffer(64)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    u[44] = 1; // race
  });
} else {
  at(1, () => {
    console.log(`sum ${down(u, 64, 20)}`);
  });
}
