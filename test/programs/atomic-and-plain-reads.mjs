// expect: no race
// idiom: mixed atomic/non-atomic READS of one element (written before the workers started): reads never race.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const v = new Int32Array(new SharedArrayBuffer(4));
  v[0] = 99;
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, v, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { v, i } = workerData;
  const seen = at(i, () => (i === 0 ? Atomics.load(v, 0) : v[0]));
  if (seen !== 99) throw new Error(`saw ${seen}`);
}
