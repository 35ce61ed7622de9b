// expect: race
// idiom: race through a TypedArray constructor's copy: b's new Int32Array(shared) reads the element a wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int32Array(new SharedArrayBuffer(32)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[5] = 42; // race
    });
  } else {
    const copy = at(1, () => new Int32Array(shared)); // race
    if (copy[5] !== 42 || copy.buffer instanceof SharedArrayBuffer) throw new Error(`copied ${copy}`);
  }
}
