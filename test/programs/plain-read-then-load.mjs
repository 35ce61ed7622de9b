// expect: race
// idiom: mixed atomic/non-atomic: a reads an element plainly, then with Atomics.load; b's Atomics.store is ordered after neither (a load orders nothing before a later store).
import { workers } from './sched.mjs';

const { main, joined, i, at, v } = workers(import.meta.url, 2, () => ({
  v: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => v[0] + Atomics.load(v, 0)); // race
  } else {
    at(1, () => Atomics.store(v, 0, 7)); // race
  }
}
