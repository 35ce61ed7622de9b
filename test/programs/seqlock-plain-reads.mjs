// expect: race
// idiom: classic seqlock with plain data accesses: the retry discards torn values, but under ECMA-262 the plain reads racing the writer ARE data races.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

const [SEQ, X, Y] = [0, 1, 2];

if (isMainThread) {
  const s = schedule();
  const w = new Int32Array(new SharedArrayBuffer(12));
  await runWorkers(import.meta.url, [
    { sched: s.buffer, w, who: 'writer' },
    { sched: s.buffer, w, who: 'reader' },
  ]);
} else {
  const { at, step, next } = schedule(workerData.sched);
  const { w, who } = workerData;
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
