// expect: race
// idiom: mixed-size atomics: a BigInt64 Atomics.store of bytes 8-15 against an Int32 Atomics.load of bytes 12-15.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sab = new SharedArrayBuffer(16);
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sab, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { sab, i } = workerData;
  if (i === 0) {
    at(0, () => Atomics.store(new BigInt64Array(sab), 1, 5n << 32n)); // race
  } else {
    const high = at(1, () => Atomics.load(new Int32Array(sab), 3)); // race
    if (high !== 5) throw new Error(`saw ${high}`);
  }
}
