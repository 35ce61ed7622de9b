// expect: no race
// idiom: structuredClone of a shared view, then accesses through the clone ordered by Atomics: the clone is the same memory, and the same happens-before applies.
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
      shared[1] = 7;
      Atomics.store(shared, 0, 1);
    });
  } else {
    const alias = structuredClone(shared);
    at(1, () => {
      if (Atomics.load(alias, 0) !== 1) throw new Error('not published');
      alias[1] = 8;
    });
  }
}
