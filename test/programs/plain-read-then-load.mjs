// expect: race
// idiom: mixed atomic/non-atomic: a reads an element plainly, then with Atomics.load; b's Atomics.store is ordered after neither (a load orders nothing before a later store).
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const v = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, v, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { v, i } = workerData;
  if (i === 0) {
    at(0, () => v[0] + Atomics.load(v, 0)); // race
  } else {
    at(1, () => Atomics.store(v, 0, 7)); // race
  }
}
