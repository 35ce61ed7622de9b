// expect: race
// idiom: review-negative-stride.mjs, racing: worker 0 also writes element 3, which worker 1's strided loop reads
// going down (30, 27, ..., 3) in each run, after its first run from the filter's cover (a strided set of stride
// -3): the first run's per-access check finds the race.
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
    const x = a[top - 3 * j]; // race
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
    a[3] = 1; // race
  });
} else {
  at(1, () => {
    let s = down(u, 64, 20);
    for (let k = 0; k < 4; k++) s += strided(a, 30, 10);
    console.log(`sum ${s}`);
  });
}
