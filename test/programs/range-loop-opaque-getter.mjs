// expect: race
// idiom: a loop that reads a property whose getter synchronizes (not an opaque operation: its value is used, so it
// could be an object whose `valueOf` runs code at any operator): the loop keeps its per-access checks. Worker 1 reads
// elements 0-7 of `a`, then again in the loop, whose getter at element 2 releases the flag worker 0 acquires before
// writing element 5, which races with worker 1's read of element 5 after the getter.
import { flagWorkers, raceCaught } from './sched.mjs';

/** The sum of `a`'s elements scaled by `box.k`. */
function scaled(a, box) {
  let s = 0;
  for (let j = 0; j < a.length; j++) {
    s += a[j] * (j === 2 ? box.k : 1); // race
  }
  return s;
}

const { main, joined, i, at, a, f } = flagWorkers(import.meta.url);
if (main) {
  await joined;
} else if (i === 1) {
  at(0, () => {
    scaled(a, { k: 2 });
    scaled(a, { k: 2 });
    scaled(a, {
      get k() {
        Atomics.store(f, 0, 1);
        return 2;
      },
    });
  });
} else {
  at(1, () => {
    if (Atomics.load(f, 0) !== 1) throw new Error('expected the release');
    raceCaught(() => {
      a[5] = 1; // race
    }, 'worker 0');
  });
}
