// expect: race
// idiom: mixed-size atomics: an Int32 Atomics.store and an Int16 Atomics.load of its upper half overlap without being equal.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sab = new SharedArrayBuffer(4);
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sab, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { sab, i } = workerData;
  if (i === 0) {
    at(0, () => Atomics.store(new Int32Array(sab), 0, 0x70001)); // race
  } else {
    const half = at(1, () => Atomics.load(new Int16Array(sab), 1)); // race
    if (half !== 7) throw new Error(`saw ${half}`); // little-endian: bytes 2-3 hold the upper half
  }
}
