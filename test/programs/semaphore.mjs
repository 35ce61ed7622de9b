// expect: no race
// idiom: Semaphore from goldilocks/sync as a signal: b blocks in acquire() until a writes and releases.
import { isMainThread, workerData } from 'node:worker_threads';
import { Semaphore } from 'goldilocks/sync';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sem = new Semaphore(0, 'ready').handle;
  const data = new Int32Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sem, data, i })),
  );
} else {
  const { at, step, next } = schedule(workerData.sched);
  const { data, i } = workerData;
  const sem = Semaphore.from(workerData.sem);
  if (i === 0) {
    at(1, () => {
      data[0] = 4;
      data[1] = 5;
      sem.release();
    });
  } else {
    step(0);
    next();
    sem.acquire(); // sleeps until a's release at step 1
    if (data[0] * data[1] !== 20) throw new Error(`data ${data[0]} ${data[1]}`);
  }
}
