// expect: no race
// idiom: a loop that `continue`s past its write in some iterations (moldyn's cut-off): worker 0 reads element 3;
// then worker 1, unordered with it, reads elements 0-7 in three passes of a loop that writes every element but 3
// (a `continue` skips it). From the second pass on its reads are covered (one cover check on entry: the view's run
// of elements read in the epoch), its writes stay per-access: nothing races, and the skipped write is no race.
import { workers } from './sched.mjs';

/** Three passes over the elements of `a`: each read, each but element 3 then written. */
function passes(a) {
  let s = 0;
  for (let pass = 1; pass <= 3; pass++) {
    for (let j = 0; j < 8; j++) {
      s += a[j];
      if (j === 3) continue;
      a[j] = pass;
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
    if (a[3] !== 0) throw new Error('expected no write yet');
  });
} else {
  at(1, () => {
    console.log(`sum ${passes(a)}`);
  });
}
