// expect: race
// idiom: a write after a `continue` that races: worker 0 reads element 5; then worker 1, unordered with it, reads
// elements 0-7 in three passes of a loop whose write runs only in the last pass, at element 5 (a `continue` skips
// it before). Its reads are covered from the second pass on (one cover check on entry), the write is not (never
// written in the epoch): it is checked on its own, and under --on-race=throw throws before it runs (element 5
// stays 0).
import { workers } from './sched.mjs';

/** Three passes over the elements of `a`, read; element 5 written in the last pass only. */
function passes(a) {
  let s = 1;
  for (let pass = 1; pass <= 3; pass++) {
    for (let j = 0; j < a.length; j++) {
      s += a[j];
      if (pass < 3 || j !== 5) continue;
      a[j] = s; // race
    }
  }
  return s;
}

const { main, joined, i, at, data } = workers(import.meta.url, 2, () => ({
  data: new SharedArrayBuffer(64),
}));
const a = new Float64Array(data);
if (main) {
  await joined;
  console.log(`elements after the joins: ${a.join(',')}`);
} else if (i === 0) {
  at(0, () => {
    if (a[5] !== 0) throw new Error('expected no write yet'); // race
  });
} else {
  at(1, () => {
    try {
      passes(a);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      console.log("thrown in worker 1's loop");
    }
  });
}
