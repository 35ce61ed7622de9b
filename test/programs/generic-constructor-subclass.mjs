// expect: race
// idiom: race through a TypedArray subclass constructor: b's new Bytes(shared) (class Bytes extends Uint8Array {}) copies the element a wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Uint8Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[0] = 1; // race
    });
  } else {
    class Bytes extends Uint8Array {}
    const got = at(1, () => new Bytes(shared)); // race
    if (got[0] !== 1) throw new Error(`got ${got}`);
  }
}
