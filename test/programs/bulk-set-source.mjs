// expect: race
// idiom: race through a bulk copy OUT of shared memory: b's local.set(shared.subarray(…)) reads the element a writes.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Uint16Array(new SharedArrayBuffer(16));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[6] = 60; // race
    });
  } else {
    const local = new Uint16Array(4);
    at(1, () => local.set(shared.subarray(4, 8))); // race
    if (local[2] !== 60) throw new Error(`copied ${local}`);
  }
}
