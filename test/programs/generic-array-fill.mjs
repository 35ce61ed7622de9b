// expect: race
// idiom: race through a generic Array method that writes: b's Array.prototype.fill.call(shared, 1, 2, 5) writes the element a read.
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
      if (shared[3] !== 0) throw new Error('read'); // race
    });
  } else {
    const got = at(1, () => Array.prototype.fill.call(shared, 1, 2, 5)); // race
    if (shared[4] !== 1 || got !== shared) throw new Error(`got ${got}`);
  }
}
