// expect: race
// idiom: a covered loop whose property write runs a setter that writes shared memory racily: worker 0 reads element
// 0 of `b`; then worker 1, unordered with it, runs a loop over `a` (covered from its third run on) whose write of
// `box.last` runs a setter writing `b[0]`. The setter's own access is checked and races with worker 0's read.
import { workers } from './sched.mjs';

/** The sum of `a`'s elements, each written to `box.last`. */
function sum(a, box) {
  let s = 0;
  for (let j = 0; j < a.length; j++) {
    s += a[j];
    box.last = s;
  }
  return s;
}

const { main, joined, i, at, data, other } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(64),
  other: new SharedArrayBuffer(8),
}));
const a = new Float64Array(data);
const b = new Float64Array(other);
if (main) {
  await joined;
  console.log(`b after the joins: ${b.join(',')}`);
} else if (i === 0) {
  at(0, () => {
    if (b[0] !== 0) throw new Error('expected no write yet'); // race
  });
} else {
  at(1, () => {
    sum(a, {});
    sum(a, {});
    try {
      sum(a, {
        set last(v) {
          b[0] = v; // race
        },
      });
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      console.log("thrown in worker 1's setter");
    }
  });
}
