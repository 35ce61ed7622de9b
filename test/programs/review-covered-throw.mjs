// expect: no race
// idiom: a covered loop (it may `continue`) that stops early in an exception thrown by a function it calls (an opaque
// operation) at element 3: worker 1 reads elements 0-3 in each of its runs, as under plain node, and worker 0's write
// of element 6, unordered with them, is no race (a covered loop records nothing: an access it does not make changes
// nothing).
import { twoSteps } from './sched.mjs';

/** Throws at element `stop`. */
function check(j, stop) {
  if (j === stop) throw new RangeError(`stop at ${j}`);
}

/** The sum of `a`'s elements up to `stop` (which throws), skipping negative ones. */
function upTo(a, stop) {
  let s = 0;
  for (let j = 0; j < a.length; j++) {
    const x = a[j];
    if (x < 0) continue;
    s += x;
    check(j, stop);
  }
  return s;
}

await twoSteps(
  import.meta.url,
  8,
  (a) => {
    a[6] = 1;
  },
  (a) => {
    for (let k = 0; k < 4; k++)
      try {
        upTo(a, 3);
        throw new Error('no stop');
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
      }
  },
);
