// expect: race
// idiom: DataView over shared memory: setFloat64 of bytes 0-7 against getUint32 of bytes 4-7 (little-endian: the high half).
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(8) }));
if (main) {
  await joined;
} else {
  const dv = new DataView(sab);
  if (i === 0) {
    at(0, () => dv.setFloat64(0, 2, true)); // race
  } else {
    const high = at(1, () => dv.getUint32(4, true)); // race
    if (high !== 0x40000000) throw new Error(`read ${high.toString(16)}`);
  }
}
