// expect: no race
// idiom: structuredClone of a shared view, then accesses through the clone ordered by Atomics: the clone is the same memory, and the same happens-before applies.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int32Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[1] = 7;
      Atomics.store(shared, 0, 1);
    });
  } else {
    const alias = structuredClone(shared);
    at(1, () => {
      if (Atomics.load(alias, 0) !== 1) throw new Error('not published');
      alias[1] = 8;
    });
  }
}
