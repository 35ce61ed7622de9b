// expect: race
// idiom: race through SharedArrayBuffer.prototype.slice: b's copy of bytes 0-15 reads the element a wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Uint32Array(new SharedArrayBuffer(32)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[2] = 0xdead; // race
    });
  } else {
    const copy = at(1, () => shared.buffer.slice(0, 16)); // race
    if (new Uint32Array(copy)[2] !== 0xdead) throw new Error(`copied ${new Uint32Array(copy)}`);
  }
}
