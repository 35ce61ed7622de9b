// expect: race
// idiom: race through a generic Array method: b's Array.prototype.map.call(shared, f) reads the element a wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int32Array(new SharedArrayBuffer(32)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[6] = 7; // race
    });
  } else {
    const got = at(1, () => Array.prototype.map.call(shared, (x) => x * 2)); // race
    if (got[6] !== 14 || !Array.isArray(got)) throw new Error(`got ${got}`);
  }
}
