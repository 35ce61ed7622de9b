// expect: race
// idiom: race through object destructuring: b's const { 2: x, length } = shared reads element 2, which a wrote.
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
      shared[2] = 5; // race
    });
  } else {
    const got = at(1, () => {
      const { 2: x, length } = shared; // race
      return [x, length];
    });
    if (got.join() !== '5,4') throw new Error(`got ${got}`);
  }
}
