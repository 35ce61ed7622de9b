// expect: race
// idiom: a read ordered after another thread's read (FastTrack's [READ EXCLUSIVE] replaces it), then a third thread's unsynchronized write.
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
      if (data[0] !== 0) throw new Error('early write');
      Atomics.store(flag, 0, 1);
    });
  } else if (i === 1) {
    // the store synchronizes-with this load: worker 0's read happens before this one
    const seen = at(1, () => (Atomics.load(flag, 0) === 1 ? data[0] : -1)); // race
    if (seen !== 0) throw new Error(`saw ${seen}`);
  } else {
    at(2, () => {
      data[0] = 1; // race
    });
  }
}
