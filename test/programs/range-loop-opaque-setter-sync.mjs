// expect: race
// idiom: a covered loop whose property write runs a setter that synchronizes: worker 1 reads elements 0-7 of `a`,
// then reads them again in a loop that is covered from its third run on (after a scan of its view), writing `box.seen` at element 2, whose
// setter releases a flag (Atomics.store). Worker 0 then acquires it and writes element 5: ordered after worker 1's
// reads before the release, not after its read of element 5 in the same loop after the setter. That read is in a
// new epoch of worker 1: the test after the property write (Hooks.syncs) sends it to its per-access check, and the
// write races with it.
import { flagWorkers, raceCaught } from './sched.mjs';

/** Reads the elements of `a`, and writes `box.seen` at element 2. */
function scan(a, box) {
  let s = 0;
  for (let j = 0; j < a.length; j++) {
    s += a[j]; // race
    if (j === 2) box.seen = j;
  }
  return s;
}

const { main, joined, i, at, a, f } = flagWorkers(import.meta.url);
if (main) {
  await joined;
} else if (i === 1) {
  at(0, () => {
    scan(a, {});
    scan(a, {});
    scan(a, {
      set seen(_v) {
        Atomics.store(f, 0, 1);
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
