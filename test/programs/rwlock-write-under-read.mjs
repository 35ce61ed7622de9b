// expect: race
// idiom: ReadWriteLock from goldilocks/sync misused: a writes while holding only a read lock, b reads under its own read lock at the same time.
import { isMainThread, workerData } from 'node:worker_threads';
import { ReadWriteLock } from 'goldilocks/sync';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const rw = new ReadWriteLock('cache').handle;
  const cache = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, rw, cache, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { cache, i } = workerData;
  const rw = ReadWriteLock.from(workerData.rw);
  at(i, () => rw.readLock()); // both hold read locks from step 1 on
  if (i === 0) {
    at(2, () => {
      cache[0] = 17; // race
    });
  } else {
    const seen = at(3, () => cache[0]); // race
    if (seen !== 17) throw new Error(`saw ${seen}`);
  }
  at(4 + i, () => rw.readUnlock());
}
