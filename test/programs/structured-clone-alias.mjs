// expect: race
// idiom: structuredClone of a shared view is an alias (same memory, a new SharedArrayBuffer object): b writes through the clone, a wrote through the original.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Int32Array(new SharedArrayBuffer(16));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[1] = 7; // race
    });
  } else {
    const { alias } = structuredClone({ alias: shared });
    at(1, () => {
      alias[1] = 8; // race
    });
  }
}
