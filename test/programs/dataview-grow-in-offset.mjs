// expect: race
// idiom: DataView over a growable SharedArrayBuffer, tracking its length: a set whose offset's valueOf grows the buffer (the offset is converted before the length is read, as the original does), against another thread's later get.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({
  sab: new SharedArrayBuffer(8, { maxByteLength: 64 }),
}));
if (main) {
  await joined;
} else {
  const dv = new DataView(sab);
  if (i === 0) {
    const offset = {
      valueOf() {
        sab.grow(32);
        return 16;
      },
    };
    at(0, () => dv.setInt32(offset, 7, true)); // race
  } else {
    const n = at(1, () => dv.getInt32(16, true)); // race
    if (n !== 7) throw new Error(`read ${n}`);
  }
}
