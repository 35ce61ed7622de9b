// expect: race
// idiom: DataView over shared memory: a setFloat64 at byte 4, over two 8-byte words, against another thread's getUint32 of bytes 8-11 (the second word).
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(16) }));
if (main) {
  await joined;
} else {
  const dv = new DataView(sab);
  if (i === 0) {
    at(0, () => dv.setFloat64(4, 2, true)); // race
  } else {
    const high = at(1, () => dv.getUint32(8, true)); // race
    if (high !== 0x40000000) throw new Error(`read ${high.toString(16)}`);
  }
}
