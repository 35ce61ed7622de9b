// expect: race
// idiom: DataView over shared memory: setFloat64 of bytes 0-7 against getUint32 of bytes 4-7 (little-endian: the high half).
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
  const dv = new DataView(sab);
  if (i === 0) {
    at(0, () => dv.setFloat64(0, 2, true)); // race
  } else {
    const high = at(1, () => dv.getUint32(4, true)); // race
    if (high !== 0x40000000) throw new Error(`read ${high.toString(16)}`);
  }
}
