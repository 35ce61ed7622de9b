// expect: race
// idiom: race through Object.values: b's Object.values(shared) reads the element a wrote.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Float64Array(new SharedArrayBuffer(32));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[1] = 0.5; // race
    });
  } else {
    const got = at(1, () => Object.values(shared)); // race
    if (got[1] !== 0.5) throw new Error(`got ${got}`);
  }
}
