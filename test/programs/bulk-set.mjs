// expect: race
// idiom: race through a bulk copy INTO shared memory: b's ta.set(array, 4) writes the element a reads.
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
    const seen = at(0, () => shared[5]); // race
    if (seen !== 0) throw new Error(`saw ${seen}`);
  } else {
    at(1, () => shared.set([7, 8], 4)); // race
  }
}
