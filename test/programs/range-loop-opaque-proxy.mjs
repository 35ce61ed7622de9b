// expect: race
// idiom: a covered loop whose property write goes to a Proxy whose `set` trap synchronizes: as
// range-loop-opaque-setter-sync.mjs, the trap releasing the flag worker 0 acquires before it writes element 5, which
// races with worker 1's read of element 5 after the trap (a new epoch: checked on its own).
import { workers } from './sched.mjs';

/** Reads the elements of `a`, and writes `box.seen` at element 2. */
function scan(a, box) {
  let s = 0;
  for (let j = 0; j < a.length; j++) {
    s += a[j]; // race
    if (j === 2) box.seen = j;
  }
  return s;
}

const { main, joined, i, at, data, flag } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(64),
  flag: new SharedArrayBuffer(4),
}));
const a = new Float64Array(data);
const f = new Int32Array(flag);
if (main) {
  await joined;
  console.log(`elements after the joins: ${a.join(',')}`);
} else if (i === 1) {
  at(0, () => {
    scan(a, {});
    scan(a, {});
    const trap = {
      set(target, key, value) {
        Atomics.store(f, 0, 1);
        target[key] = value;
        return true;
      },
    };
    scan(a, new Proxy({}, trap));
  });
} else {
  at(1, () => {
    if (Atomics.load(f, 0) !== 1) throw new Error('expected the release');
    try {
      a[5] = 1; // race
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      console.log('thrown in worker 0');
    }
  });
}
