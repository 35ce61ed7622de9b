// expect: no race
// idiom: spin lock built from an Atomics.compareExchange loop, released by Atomics.store; b spins while a holds it.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

const tryLock = (lock) => Atomics.compareExchange(lock, 0, 0, 1) === 0;
const unlock = (lock) => Atomics.store(lock, 0, 0);

if (isMainThread) {
  const s = schedule();
  const lock = new Int32Array(new SharedArrayBuffer(4));
  const counter = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(import.meta.url, [
    { sched: s.buffer, lock, counter, who: 'a' },
    { sched: s.buffer, lock, counter, who: 'b' },
  ]);
  if (counter[0] !== 2) throw new Error(`counter is ${counter[0]}`);
} else {
  const { at, step, next } = schedule(workerData.sched);
  const { lock, counter, who } = workerData;
  if (who === 'a') {
    at(0, () => {
      while (!tryLock(lock));
    });
    at(2, () => {
      counter[0] += 1;
      unlock(lock);
    });
  } else {
    step(1);
    if (tryLock(lock)) throw new Error('the lock is not exclusive');
    next();
    while (!tryLock(lock)); // spins until a's unlock at step 2
    counter[0] += 1;
    unlock(lock);
  }
}
