// expect: no race
// idiom: two unordered reads (read-shared), then a write ordered after both by two atomic flags.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const flags = new Int32Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1, 2].map((i) => ({ sched: s.buffer, data, flags, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { data, flags, i } = workerData;
  if (i < 2) {
    at(i, () => {
      if (data[0] !== 0) throw new Error('early write');
      Atomics.store(flags, i, 1);
    });
  } else {
    at(2, () => {
      if (Atomics.load(flags, 0) === 1 && Atomics.load(flags, 1) === 1) data[0] = 1;
    });
  }
}
