// expect: race
// idiom: a covered loop that calls a module function (an opaque operation) which releases a flag with Atomics.store
// at element 2: worker 1 reads elements 0-7, then again in the loop (covered from its second run on); worker 0
// acquires the flag and writes element 5, ordered after worker 1's reads before the release but not after its read of
// element 5 in the loop after it (a new epoch of worker 1), which races.
import { flagWorkers, raceCaught } from './sched.mjs';

let flag = null;

/** Releases the flag at element 2 when it is set. */
function note(j) {
  if (j === 2 && flag !== null) Atomics.store(flag, 0, 1);
}

/** The sum of `a`'s elements, skipping negative ones, calling `note` at each. */
function scan(a) {
  let s = 0;
  for (let j = 0; j < a.length; j++) {
    const x = a[j]; // race
    if (x < 0) continue;
    s += x;
    note(j);
  }
  return s;
}

const { main, joined, i, at, a, f } = flagWorkers(import.meta.url);
if (main) {
  await joined;
} else if (i === 1) {
  at(0, () => {
    scan(a);
    scan(a);
    flag = f;
    scan(a);
  });
} else {
  at(1, () => {
    if (Atomics.load(f, 0) !== 1) throw new Error('expected the release');
    raceCaught(() => {
      a[5] = 1; // race
    }, 'worker 0');
  });
}
