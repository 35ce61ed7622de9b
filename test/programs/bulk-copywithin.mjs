// expect: race
// idiom: race through copyWithin (reads elements 4-7, writes 0-3) against a plain write of element 6.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Int8Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
  if (shared[2] !== -9) throw new Error(`shared[2] is ${shared[2]}`);
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[6] = -9; // race
    });
  } else {
    at(1, () => shared.copyWithin(0, 4, 8)); // race
  }
}
