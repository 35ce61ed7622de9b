// expect: race
// idiom: race through a Buffer method's argument: b's local.equals(shared) reads the byte a writes (the receiver is not shared).
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(8) }));
if (main) {
  await joined;
} else {
  const shared = Buffer.from(sab);
  if (i === 0) {
    at(0, () => {
      shared[5] = 1; // race
    });
  } else {
    const local = Buffer.alloc(8);
    const same = at(1, () => local.equals(shared)); // race
    if (same) throw new Error('equal');
  }
}
