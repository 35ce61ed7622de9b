// expect: race
// idiom: a covered loop that may `break` and whose property write goes to a Proxy whose `set` trap synchronizes: as
// range-loop-opaque-setter-sync.mjs, the trap releasing the flag worker 0 acquires before it writes element 5, which
// races with worker 1's read of element 5 after the trap (a new epoch: checked on its own).
import { flagWorkers, raceCaught } from './sched.mjs';

/** The index of the first element of `a` above `limit`, or -1; `box.at` written at element 2. */
function firstAbove(a, limit, box) {
  let at = -1;
  for (let j = 0; j < a.length; j++) {
    if (j === 2) box.at = j;
    const x = a[j]; // race
    if (x > limit) {
      at = j;
      break;
    }
  }
  return at;
}

const { main, joined, i, at, a, f } = flagWorkers(import.meta.url);
if (main) {
  await joined;
} else if (i === 1) {
  at(0, () => {
    firstAbove(a, 1, {});
    firstAbove(a, 1, {});
    const trap = {
      set(target, key, value) {
        Atomics.store(f, 0, 1);
        target[key] = value;
        return true;
      },
    };
    firstAbove(a, 1, new Proxy({}, trap));
  });
} else {
  at(1, () => {
    if (Atomics.load(f, 0) !== 1) throw new Error('expected the release');
    raceCaught(() => {
      a[5] = 1; // race
    }, 'worker 0');
  });
}
