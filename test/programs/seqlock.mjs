// expect: no race
// idiom: seqlock done right in JS: the data words are read AND written with Atomics (plain reads would race, see seqlock-plain-reads).
import { workers } from './sched.mjs';

const [SEQ, X, Y] = [0, 1, 2];

const { main, joined, who, at, step, next, w } = workers(import.meta.url, ['writer', 'reader'], () => ({
  w: new Int32Array(new SharedArrayBuffer(12)),
}));
if (main) {
  await joined;
} else {
  if (who === 'writer') {
    at(1, () => {
      Atomics.add(w, SEQ, 1); // odd: write in progress
      Atomics.store(w, X, 5);
      Atomics.store(w, Y, -5);
      Atomics.add(w, SEQ, 1);
    });
  } else {
    step(0);
    let s1 = Atomics.load(w, SEQ);
    next(); // the writer runs between this load and the data loads: the first attempt must retry
    step(2);
    let x = Atomics.load(w, X);
    let y = Atomics.load(w, Y);
    let tries = 1;
    while (s1 & 1 || Atomics.load(w, SEQ) !== s1) {
      s1 = Atomics.load(w, SEQ);
      x = Atomics.load(w, X);
      y = Atomics.load(w, Y);
      tries++;
    }
    next();
    if (tries !== 2 || x !== 5 || y !== -5) throw new Error(`tries ${tries}: ${x}, ${y}`);
  }
}
