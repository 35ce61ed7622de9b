// expect: race
// idiom: race through slice(): b's copy of elements 0-3 reads the element a wrote.
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
    const copy = at(1, () => shared.slice(0, 4)); // race
    if (copy[2] !== 0xdead) throw new Error(`copied ${copy}`);
  }
}
