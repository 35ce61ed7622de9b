// expect: race
// idiom: race through Buffer#fill's value: b's local.fill(shared) reads the first 4 bytes of shared (as many as fill local), one of which a writes; a's write of byte 6, which fill does not read, is no race.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(8) }));
if (main) {
  await joined;
} else {
  const shared = Buffer.from(sab);
  if (i === 0) {
    at(0, () => {
      shared[6] = 6;
      shared[3] = 3; // race
    });
  } else {
    const local = Buffer.alloc(4);
    at(1, () => local.fill(shared)); // race
    if (local[3] !== 3) throw new Error(`filled ${[...local]}`);
  }
}
