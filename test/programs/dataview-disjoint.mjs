// expect: no race
// idiom: DataView get/set: unordered accesses to disjoint bytes, and an overlapping one ordered by an Atomics flag.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sab = new SharedArrayBuffer(24);
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sab, i })),
  );
  if (new DataView(sab).getInt16(4, true) !== -2) throw new Error('lost a write');
} else {
  const { at } = schedule(workerData.sched);
  const { sab, i } = workerData;
  const dv = new DataView(sab);
  const flag = new Int32Array(sab, 16, 1);
  if (i === 0) {
    at(0, () => {
      dv.setInt16(0, 1);
      dv.setUint8(2, 3);
      dv.setFloat64(8, 0.125);
      Atomics.store(flag, 0, 1);
    });
  } else {
    at(1, () => {
      dv.setInt16(4, -2, true);
      if (dv.getUint8(3) !== 0) throw new Error('byte 3');
      if (Atomics.load(flag, 0) !== 1 || dv.getFloat64(8) !== 0.125) throw new Error('not published');
    });
  }
}
