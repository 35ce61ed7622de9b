// expect: race
// idiom: Float64 tearing: two workers write one Float64 element unsynchronized (a plain 8-byte write may tear).
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const f = new Float64Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, f, i })),
  );
  if (f[0] !== -2.25) throw new Error(`f[0] is ${f[0]}`);
} else {
  const { at } = schedule(workerData.sched);
  const { f, i } = workerData;
  if (i === 0) {
    at(0, () => {
      f[0] = 1.5; // race
    });
  } else {
    at(1, () => {
      f[0] = -2.25; // race
    });
  }
}
