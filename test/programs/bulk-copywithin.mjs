// expect: race
// idiom: race through copyWithin (reads elements 4-7, writes 0-3) against a plain write of element 6.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int8Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
  if (shared[2] !== -9) throw new Error(`shared[2] is ${shared[2]}`);
} else {
  if (i === 0) {
    at(0, () => {
      shared[6] = -9; // race
    });
  } else {
    at(1, () => shared.copyWithin(0, 4, 8)); // race
  }
}
