// expect: race
// idiom: a covered loop that calls `Math.sqrt` and an opaque function, `patch`, that replaces `Math.sqrt` with one
// that synchronizes: worker 1 reads elements 0-7 of `a`, then again in a covered loop that calls `patch` at element
// 2; the `Math.sqrt` call after it (at element 3) releases the flag worker 0 acquires before writing element 5 (once:
// a release after the read of element 5 would order it before the write). The test after
// `patch` finds `Math.sqrt` no longer the built-in and sends the loop's later accesses to their per-access checks, so
// the write races with worker 1's read of element 5.
import { flagWorkers, raceCaught } from './sched.mjs';

/** The root of the sum of squares of `a`'s elements; `patch(j)` at element 2. */
function norm(a, patch) {
  let s = 0;
  for (let j = 0; j < a.length; j++) {
    const x = a[j]; // race
    s += Math.sqrt(x * x);
    if (j === 2) patch(j);
  }
  return s;
}

const { main, joined, i, at, a, f } = flagWorkers(import.meta.url);
if (main) {
  await joined;
} else if (i === 1) {
  at(0, () => {
    norm(a, () => {});
    norm(a, () => {});
    const sqrt = Math.sqrt;
    norm(a, () => {
      Math.sqrt = (x) => {
        if (Atomics.load(f, 0) === 0) Atomics.store(f, 0, 1);
        return sqrt(x);
      };
    });
    Math.sqrt = sqrt;
  });
} else {
  at(1, () => {
    if (Atomics.load(f, 0) !== 1) throw new Error('expected the release');
    raceCaught(() => {
      a[5] = 1; // race
    }, 'worker 0');
  });
}
