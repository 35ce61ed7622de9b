// expect: race
// idiom: race through object spread: b's { ...shared } reads every element, also the one a wrote.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Uint32Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      shared[3] = 33; // race
    });
  } else {
    const got = at(1, () => ({ ...shared, n: 1 })); // race
    if (got[3] !== 33 || got.n !== 1) throw new Error(`got ${got}`);
  }
}
