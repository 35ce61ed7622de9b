// expect: race
// idiom: race through a generic Array method that writes: b's Array.prototype.fill.call(shared, 1, 2, 5) writes the element a read.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Uint16Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      if (shared[3] !== 0) throw new Error('read'); // race
    });
  } else {
    const got = at(1, () => Array.prototype.fill.call(shared, 1, 2, 5)); // race
    if (shared[4] !== 1 || got !== shared) throw new Error(`got ${got}`);
  }
}
