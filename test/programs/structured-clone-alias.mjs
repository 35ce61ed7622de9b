// expect: race
// idiom: structuredClone of a shared view is an alias (same memory, a new SharedArrayBuffer object): b writes through the clone, a wrote through the original.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int32Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[1] = 7; // race
    });
  } else {
    const { alias } = structuredClone({ alias: shared });
    at(1, () => {
      alias[1] = 8; // race
    });
  }
}
