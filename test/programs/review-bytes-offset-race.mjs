// expect: race
// idiom: review-bytes-offset.mjs, racing: worker 1's range-checked loop writes bytes 10-17 through a Uint16Array at
// offset 10, and worker 0 read element 2 of a Float64Array over the same buffer (bytes 16-23) unordered with it: the
// range check would report the race, so the loop runs its per-access checks, which find it at element 3 (bytes 16-17).
import { workers } from './sched.mjs';

/** Writes `x` into the elements [0, n) of `v`. */
function fill(v, n, x) {
  for (let j = 0; j < n; j++) v[j] = x; // race
}

const { main, joined, i, at, data } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(32),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    console.log(`element 2: ${new Float64Array(data)[2]}`); // race
  });
} else {
  at(1, () => {
    fill(new Uint16Array(data, 10, 4), 4, 5);
  });
}
