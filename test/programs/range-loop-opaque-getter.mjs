// expect: race
// idiom: a loop that reads a property whose getter synchronizes (not an opaque operation: its value is used, so it
// could be an object whose `valueOf` runs code at any operator): the loop keeps its per-access checks. Worker 1 reads
// elements 0-7 of `a`, then again in the loop, whose getter at element 2 releases the flag worker 0 acquires before
// writing element 5, which races with worker 1's read of element 5 after the getter.
import { releaseThenWrite } from './opaque-release.mjs';

/** The sum of `a`'s elements scaled by `box.k`. */
function scaled(a, box) {
  let s = 0;
  for (let j = 0; j < a.length; j++) {
    s += a[j] * (j === 2 ? box.k : 1); // race
  }
  return s;
}

await releaseThenWrite(import.meta.url, (a, release) => {
  scaled(a, { k: 2 });
  scaled(a, { k: 2 });
  scaled(a, {
    get k() {
      release();
      return 2;
    },
  });
});
