// expect: race
// idiom: race through SharedArrayBuffer.prototype.slice: a's copy of bytes 8-15 reads the element b wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Uint32Array(new SharedArrayBuffer(32)),
}));
if (main) await joined;
else if (i === 1)
  at(0, () => (shared[2] = 0xdead)); // race
else {
  const copy = new Uint32Array(at(1, () => shared.buffer.slice(8, 16))); // race
  if (copy[0] !== 0xdead) throw new Error(`copied ${copy}`);
}
