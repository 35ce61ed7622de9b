// expect: race
// idiom: race through Object.assign with a view as target: b's Object.assign(shared, { 2: 9 }) writes the element a read.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int8Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      if (shared[2] !== 0) throw new Error('read'); // race
    });
  } else {
    const got = at(1, () => Object.assign(shared, { 2: 9, x: 1 })); // race
    if (shared[2] !== 9 || got.x !== 1) throw new Error(`got ${got}`);
  }
}
