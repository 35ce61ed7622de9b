// expect: race
// idiom: race through Buffer#indexOf: b's Buffer (over the shared memory) searched for the byte a wrote reads it.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Uint8Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[9] = 0x42; // race
    });
  } else {
    const got = at(1, () => Buffer.from(shared.buffer).indexOf(0x42)); // race
    if (got !== 9) throw new Error(`got ${got}`);
  }
}
