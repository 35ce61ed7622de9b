// expect: race
// idiom: race through a bulk write: a's fill() of elements 2-5 against b's plain read of element 3.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Float32Array(new SharedArrayBuffer(32));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => shared.fill(0.5, 2, 6)); // race
  } else {
    const seen = at(1, () => shared[3]); // race
    if (seen !== 0.5) throw new Error(`saw ${seen}`);
  }
}
