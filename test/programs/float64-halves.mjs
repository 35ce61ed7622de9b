// expect: race
// idiom: Float64 tearing seen through an Int32 view: a plain Float64 write against an Atomics.load of its high half.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sab = new SharedArrayBuffer(8);
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sab, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { sab, i } = workerData;
  if (i === 0) {
    const f = new Float64Array(sab);
    at(0, () => {
      f[0] = 1; // race
    });
  } else {
    const high = at(1, () => Atomics.load(new Int32Array(sab), 1)); // race
    if (high !== 0x3ff00000) throw new Error(`high half ${high.toString(16)}`);
  }
}
