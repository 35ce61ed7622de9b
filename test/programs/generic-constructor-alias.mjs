// expect: race
// idiom: race through a TypedArray constructor not called by its global name: b's const F = Float64Array; new F(shared) copies the element a wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int32Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[3] = 8; // race
    });
  } else {
    const got = at(1, () => {
      const F = Float64Array;
      return new F(shared); // race
    });
    if (got[3] !== 8) throw new Error(`got ${got}`);
  }
}
