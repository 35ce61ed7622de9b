// expect: no race
// idiom: a FAILED Atomics.compareExchange still reads: it synchronizes with the Atomics.store it read from.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const data = new Int16Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, flag, data, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { flag, data, i } = workerData;
  if (i === 0) {
    at(0, () => {
      data[1] = -300;
      Atomics.store(flag, 0, 1);
    });
  } else {
    const seen = at(1, () => (Atomics.compareExchange(flag, 0, 0, 2) === 1 ? data[1] : undefined));
    if (seen !== -300) throw new Error(`saw ${seen}`);
  }
}
