// expect: race
// idiom: race through object spread: b's { ...shared } reads every element, also the one a wrote.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Uint32Array(new SharedArrayBuffer(16));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[3] = 33; // race
    });
  } else {
    const got = at(1, () => ({ ...shared, n: 1 })); // race
    if (got[3] !== 33 || got.n !== 1) throw new Error(`got ${got}`);
  }
}
