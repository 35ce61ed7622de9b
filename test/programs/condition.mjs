// expect: no race
// idiom: Condition + Mutex from goldilocks/sync: the consumer waits for a ready flag set (with the data) under the mutex.
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
      m.lock(); // free once the consumer sleeps in cond.wait
      st[DATA] = 42;
      st[READY] = 1;
      cond.notify();
      m.unlock();
    });
  } else {
    step(0);
    m.lock();
    next();
    while (st[READY] === 0) cond.wait(m);
    const v = st[DATA];
    m.unlock();
    if (v !== 42) throw new Error(`got ${v}`);
  }
}
