// expect: race
// idiom: race through a generic Array method: b's Array.prototype.map.call(shared, f) reads the element a wrote.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Int32Array(new SharedArrayBuffer(32));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[6] = 7; // race
    });
  } else {
    const got = at(1, () => Array.prototype.map.call(shared, (x) => x * 2)); // race
    if (got[6] !== 14 || !Array.isArray(got)) throw new Error(`got ${got}`);
  }
}
