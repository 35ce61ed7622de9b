// expect: no race
// idiom: DataView get/set: unordered accesses to disjoint bytes, and an overlapping one ordered by an Atomics flag.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(24) }));
if (main) {
  await joined;
  if (new DataView(sab).getInt16(4, true) !== -2) throw new Error('lost a write');
} else {
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
