// expect: race
// idiom: a covered loop whose property write goes to a Proxy whose `set` trap synchronizes: as
// range-loop-opaque-setter-sync.mjs, the trap releasing the flag worker 0 acquires before it writes element 5, which
// races with worker 1's read of element 5 after the trap (a new epoch: checked on its own).
import { releaseThenWrite } from './opaque-release.mjs';

/** Reads the elements of `a`, and writes `box.seen` at element 2. */
function scan(a, box) {
  let s = 0;
  for (let j = 0; j < a.length; j++) {
    s += a[j]; // race
    if (j === 2) box.seen = j;
  }
  return s;
}

await releaseThenWrite(import.meta.url, (a, release) => {
  scan(a, {});
  scan(a, {});
  const trap = {
    set(target, key, value) {
      release();
      target[key] = value;
      return true;
    },
  };
  scan(a, new Proxy({}, trap));
});
