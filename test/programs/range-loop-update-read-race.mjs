// expect: race
// idiom: a range-checked read-modify-write loop (a[j] *= 2) races with another worker's unordered read of element
// 40: only the loop's write of it races (two reads never do). The range check decides the element by its write,
// falls back, and the per-access checks report the write, as they do without range checks.
import { workers } from './sched.mjs';

/** Doubles a[lo..hi). */
function double(a, lo, hi) {
  for (let j = lo; j < hi; j++) a[j] *= 2; // race
}

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Float64Array(new SharedArrayBuffer(8 * 64)).fill(1),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    if (shared[40] !== 1) throw new Error('element 40 changed before the loop'); // race
  });
} else {
  at(1, () => double(shared, 0, 64));
}
