// expect: race
// idiom: Semaphore from goldilocks/sync with two permits used as a lock: both holders are inside at once.
import { isMainThread, workerData } from 'node:worker_threads';
import { Semaphore } from 'goldilocks/sync';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sem = new Semaphore(2, 'pool').handle;
  const slot = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sem, slot, i })),
  );
  if (slot[0] !== 2) throw new Error(`slot ${slot[0]}`);
} else {
  const { at } = schedule(workerData.sched);
  const { slot, i } = workerData;
  const sem = Semaphore.from(workerData.sem);
  at(i, () => sem.acquire()); // both hold a permit from step 1 on
  if (i === 0) {
    at(2, () => {
      slot[0] = 1; // race
    });
  } else {
    at(3, () => {
      slot[0] = 2; // race
    });
  }
  at(4 + i, () => sem.release());
}
