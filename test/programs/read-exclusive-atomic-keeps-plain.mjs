// expect: race
// idiom: an Atomics.load ordered after another thread's plain read does not replace it: a later Atomics.store races with the plain read only.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const flag = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1, 2].map((i) => ({ sched: s.buffer, data, flag, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { data, flag, i } = workerData;
  if (i === 0) {
    at(0, () => {
      if (data[0] !== 0) throw new Error('early write'); // race
      Atomics.store(flag, 0, 1);
    });
  } else if (i === 1) {
    const seen = at(1, () => (Atomics.load(flag, 0) === 1 ? Atomics.load(data, 0) : -1));
    if (seen !== 0) throw new Error(`saw ${seen}`);
  } else {
    at(2, () => {
      Atomics.store(data, 0, 1); // race
    });
  }
}
