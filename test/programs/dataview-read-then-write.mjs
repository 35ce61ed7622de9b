// expect: race
// idiom: DataView over shared memory: a get then a set of the same bytes in one epoch (the set is checked although the get's bytes are in the thread's same-epoch filter), against another thread's later get.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(32) }));
if (main) {
  await joined;
} else {
  const dv = new DataView(sab);
  if (i === 0) {
    at(0, () => {
      const n = dv.getInt32(16, true) + dv.getInt32(16, true);
      dv.setInt32(16, n + 1, true); // race
    });
  } else {
    const n = at(1, () => dv.getInt32(16, true)); // race
    if (n !== 1) throw new Error(`read ${n}`);
  }
}
