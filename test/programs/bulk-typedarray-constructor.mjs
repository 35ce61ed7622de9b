// expect: race
// idiom: race through a TypedArray constructor's copy: b's new Int32Array(shared) reads the element a wrote.
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
      shared[5] = 42; // race
    });
  } else {
    const copy = at(1, () => new Int32Array(shared)); // race
    if (copy[5] !== 42 || copy.buffer instanceof SharedArrayBuffer) throw new Error(`copied ${copy}`);
  }
}
