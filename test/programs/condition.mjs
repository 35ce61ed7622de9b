// expect: no race
// idiom: Condition + Mutex from goldilocks/sync: the consumer waits for a ready flag set (with the data) under the mutex.
import { isMainThread, workerData } from 'node:worker_threads';
import { Condition, Mutex } from 'goldilocks/sync';
import { runWorkers, schedule } from './sched.mjs';

const [READY, DATA] = [0, 1];

if (isMainThread) {
  const s = schedule();
  const sync = { mutex: new Mutex('m').handle, cond: new Condition('ready').handle };
  const st = new Int32Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, ...sync, st, i })),
  );
} else {
  const { at, step, next } = schedule(workerData.sched);
  const { st, i } = workerData;
  const [m, cond] = [Mutex.from(workerData.mutex), Condition.from(workerData.cond)];
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
