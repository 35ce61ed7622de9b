// expect: race
// idiom: race through Object.assign with a view as target: b's Object.assign(shared, { 2: 9 }) writes the element a read.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Int8Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      if (shared[2] !== 0) throw new Error('read'); // race
    });
  } else {
    const got = at(1, () => Object.assign(shared, { 2: 9, x: 1 })); // race
    if (shared[2] !== 9 || got.x !== 1) throw new Error(`got ${got}`);
  }
}
