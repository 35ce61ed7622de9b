// expect: race
// idiom: race through a bulk copy OUT of shared memory: b's local.set(shared.subarray(…)) reads the element a writes.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Uint16Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[6] = 60; // race
    });
  } else {
    const local = new Uint16Array(4);
    at(1, () => local.set(shared.subarray(4, 8))); // race
    if (local[2] !== 60) throw new Error(`copied ${local}`);
  }
}
