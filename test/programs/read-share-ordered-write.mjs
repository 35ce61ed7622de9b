// expect: race
// idiom: two unordered reads (FastTrack's [READ SHARE] keeps both), then a write ordered after the second read only.
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
    const seen = at(0, () => data[0]); // race
    if (seen !== 0) throw new Error(`saw ${seen}`);
  } else if (i === 1) {
    at(1, () => {
      if (data[0] !== 0) throw new Error('early write');
      Atomics.store(flag, 0, 1);
    });
  } else {
    at(2, () => {
      // ordered after worker 1's read by the flag, not after worker 0's
      if (Atomics.load(flag, 0) === 1) data[0] = 1; // race
    });
  }
}
