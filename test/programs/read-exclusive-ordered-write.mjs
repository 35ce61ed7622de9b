// expect: no race
// idiom: a chain read → read → write, each ordered after the one before by an atomic flag (the first read happens before the write by transitivity).
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
  if (i === 0) {
    at(0, () => {
      if (data[0] !== 0) throw new Error('early write');
      Atomics.store(flags, 0, 1);
    });
  } else if (i === 1) {
    at(1, () => {
      if (Atomics.load(flags, 0) !== 1 || data[0] !== 0) throw new Error('out of order');
      Atomics.store(flags, 1, 1);
    });
  } else {
    at(2, () => {
      if (Atomics.load(flags, 1) === 1) data[0] = 1;
    });
  }
}
