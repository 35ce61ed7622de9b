// expect: race
// idiom: DataView over a growable SharedArrayBuffer, tracking its length: a set beyond the length it had at its first access, once another thread grew the buffer, against that thread's later get.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({
  sab: new SharedArrayBuffer(8, { maxByteLength: 64 }),
}));
if (main) {
  await joined;
} else {
  const dv = new DataView(sab);
  if (i === 0) {
    at(0, () => dv.getInt32(0, true));
    at(2, () => dv.setInt32(16, 7, true)); // race
  } else {
    at(1, () => sab.grow(32));
    const n = at(3, () => dv.getInt32(16, true)); // race
    if (n !== 7) throw new Error(`read ${n}`);
  }
}
