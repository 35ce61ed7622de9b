// expect: no race
// idiom: a flag published with Atomics.store and read back plainly after an Atomics.load that read it: the store
// synchronizes-with the load (ECMA-262 §29), so the plain read of the same element is ordered after the store.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, flag, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { flag, i } = workerData;
  if (i === 0) at(0, () => Atomics.store(flag, 0, 7));
  else
    at(1, () => {
      if (Atomics.load(flag, 0) !== 7 || flag[0] !== 7) throw new Error('flag not seen');
    });
}
