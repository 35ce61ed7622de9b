// expect: race
// idiom: a loop indexed by a counter that races: b's loop writes dst[++out] for out from 16 to 23 while a wrote
// element 20 unordered before it: the range check would report a race, so the loop runs its per-access checks, which
// report it at element 20 (under --on-race=throw: thrown before that write, after the writes of 16-19).
import { workers } from './sched.mjs';

/** Stores a[lo..hi) doubled after b[k], returning the last index written. */
function append(a, b, lo, hi, k) {
  let last = k;
  for (let j = lo; j < hi; j++) b[++last] = 2 * a[j]; // race
  return last;
}

const { main, joined, i, at, src, dst } = workers(import.meta.url, 2, () => {
  const src = new Float64Array(new SharedArrayBuffer(128));
  for (let k = 0; k < 16; k++) src[k] = k + 1;
  return { src, dst: new Float64Array(new SharedArrayBuffer(256)) };
});
if (main) {
  await joined;
  console.log(`elements 16-23 after the joins: ${[...dst.subarray(16, 24)].join(',')}`);
} else if (i === 0) {
  at(0, () => {
    dst[20] = -1; // race
  });
} else {
  at(1, () => {
    try {
      append(src, dst, 0, 8, 15);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      console.log("thrown in b's loop");
    }
  });
}
