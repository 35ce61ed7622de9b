// expect: race
// idiom: Condition + Mutex from goldilocks/sync where the producer writes the data after notify and unlock.
import { Condition, Mutex } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const [READY, DATA] = [0, 1];

const { main, joined, i, at, step, next, mutex, condition, st } = workers(import.meta.url, 2, () => ({
  mutex: new Mutex('m').handle,
  condition: new Condition('ready').handle,
  st: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  const [m, cond] = [Mutex.from(mutex), Condition.from(condition)];
  if (i === 0) {
    at(1, () => {
      m.lock();
      st[READY] = 1;
      cond.notify();
      m.unlock();
      st[DATA] = 42; // race
    });
  } else {
    step(0);
    m.lock();
    next();
    while (st[READY] === 0) cond.wait(m);
    m.unlock();
    const v = at(2, () => st[DATA]); // race
    if (v !== 42) throw new Error(`got ${v}`);
  }
}
