// expect: race
// idiom: race through Object.values: b's Object.values(shared) reads the element a wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Float64Array(new SharedArrayBuffer(32)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[1] = 0.5; // race
    });
  } else {
    const got = at(1, () => Object.values(shared)); // race
    if (got[1] !== 0.5) throw new Error(`got ${got}`);
  }
}
