// expect: no race
// idiom: Mutex from goldilocks/sync, contended: b fails tryLock while a holds it, then blocks in lock() until a unlocks.
import { isMainThread, workerData } from 'node:worker_threads';
import { Mutex } from 'goldilocks/sync';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const mutex = new Mutex('counter').handle;
  const counter = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, mutex, counter, i })),
  );
  if (counter[0] !== 2) throw new Error(`counter ${counter[0]}`);
} else {
  const { at, step, next } = schedule(workerData.sched);
  const { counter, i } = workerData;
  const m = Mutex.from(workerData.mutex);
  if (i === 0) {
    at(0, () => m.lock());
    at(2, () => {
      counter[0] += 1;
      m.unlock();
    });
  } else {
    step(1);
    if (m.tryLock()) throw new Error('the mutex is not exclusive');
    next();
    m.lock(); // sleeps until a's unlock at step 2
    counter[0] += 1;
    m.unlock();
  }
}
