// expect: race
// idiom: race through a TypedArray constructor not called by its global name: b's const F = Float64Array; new F(shared) copies the element a wrote.
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
      shared[3] = 8; // race
    });
  } else {
    const got = at(1, () => {
      const F = Float64Array;
      return new F(shared); // race
    });
    if (got[3] !== 8) throw new Error(`got ${got}`);
  }
}
