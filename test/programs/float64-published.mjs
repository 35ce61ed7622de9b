// expect: no race
// idiom: Float64 values published safely: plain Float64 writes, then Atomics.store of an Int32 flag; the reader Atomics.loads it first.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const f = new Float64Array(new SharedArrayBuffer(16));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, flag, f, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { flag, f, i } = workerData;
  if (i === 0) {
    at(0, () => {
      f[0] = Math.PI;
      f[1] = -Math.E;
      Atomics.store(flag, 0, 1);
    });
  } else {
    const sum = at(1, () => (Atomics.load(flag, 0) === 1 ? f[0] + f[1] : NaN));
    if (sum !== Math.PI - Math.E) throw new Error(`sum ${sum}`);
  }
}
