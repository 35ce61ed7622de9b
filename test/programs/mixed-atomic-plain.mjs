// expect: race
// idiom: mixed atomic/non-atomic on one element: a's Atomics.add and b's plain write are unordered.
import { workers } from './sched.mjs';

const { main, joined, i, at, hits } = workers(import.meta.url, 2, () => ({
  hits: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
  if (hits[0] !== 0) throw new Error(`hits ${hits[0]}`);
} else {
  if (i === 0) {
    at(0, () => Atomics.add(hits, 0, 1)); // race
  } else {
    at(1, () => {
      hits[0] = 0; // race
    });
  }
}
