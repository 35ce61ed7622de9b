// expect: race
// idiom: classic seqlock with plain data accesses: the retry discards torn values, but under ECMA-262 the plain reads racing the writer ARE data races.
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
      Atomics.add(w, SEQ, 1);
      w[X] = 5; // race
      w[Y] = -5;
      Atomics.add(w, SEQ, 1);
    });
  } else {
    step(0);
    let s1 = Atomics.load(w, SEQ);
    next();
    step(2);
    let x = w[X]; // race
    let y = w[Y];
    while (s1 & 1 || Atomics.load(w, SEQ) !== s1) {
      s1 = Atomics.load(w, SEQ);
      x = w[X];
      y = w[Y];
    }
    next();
    if (x !== 5 || y !== -5) throw new Error(`${x}, ${y}`);
  }
}
