// expect: no race
// idiom: a loop that `continue`s past its write in some iterations (moldyn's cut-off): worker 1 reads element 3;
// then worker 0, unordered with it, reads elements 0-7 in three passes of a loop that writes every element but 3
// (a `continue` skips it). From the second pass on its reads are covered (one cover check on entry: the view's run
// of elements read in the epoch), its writes stay per-access: nothing races, and the skipped write is no race.
import { float64Workers } from './sched.mjs';

/** Three passes over the elements of `a`: each read, each but element 3 then written. */
function passes(a) {
  let s = 0;
  for (let pass = 1; pass <= 3; pass++) {
    for (let j = 0; j < a.length; j++) {
      s += a[j];
      if (j === 3) continue;
      a[j] = pass;
    }
  }
  return s;
}

const { main, joined, i, at, shared } = float64Workers(import.meta.url, 2, 8);
if (main) {
  await joined;
  console.log(`after the joins: ${shared.join(',')}`);
} else {
  // worker 1 reads element 3 first; worker 0's passes come after, unordered with that read
  at(1 - i, () => {
    // one worker prints: two workers' lines reach stdout in no fixed order
    if (i === 1) console.log(`element 3 before the passes: ${shared[3]}`);
    else passes(shared);
  });
}
