// expect: race
// idiom: compareExchange spin lock that one side forgets to take: b reads the guarded value without the lock.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const lock = new Int32Array(new SharedArrayBuffer(4));
  const balance = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(import.meta.url, [
    { sched: s.buffer, lock, balance, who: 'a' },
    { sched: s.buffer, lock, balance, who: 'b' },
  ]);
} else {
  const { at } = schedule(workerData.sched);
  const { lock, balance, who } = workerData;
  if (who === 'a') {
    at(0, () => {
      while (Atomics.compareExchange(lock, 0, 0, 1) !== 0);
      balance[0] = 100; // race
      Atomics.store(lock, 0, 0);
    });
  } else {
    const seen = at(1, () => balance[0]); // race
    if (seen !== 100) throw new Error(`saw ${seen}`);
  }
}
