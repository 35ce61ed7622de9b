// expect: race
// idiom: mixed atomic/non-atomic on one element: a's Atomics.add and b's plain write are unordered.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const hits = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, hits, i })),
  );
  if (hits[0] !== 0) throw new Error(`hits ${hits[0]}`);
} else {
  const { at } = schedule(workerData.sched);
  const { hits, i } = workerData;
  if (i === 0) {
    at(0, () => Atomics.add(hits, 0, 1)); // race
  } else {
    at(1, () => {
      hits[0] = 0; // race
    });
  }
}
