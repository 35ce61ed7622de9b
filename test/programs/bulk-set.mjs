// expect: race
// idiom: race through a bulk copy INTO shared memory: b's ta.set(array, 4) writes the element a reads.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int32Array(new SharedArrayBuffer(32)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    const seen = at(0, () => shared[5]); // race
    if (seen !== 0) throw new Error(`saw ${seen}`);
  } else {
    at(1, () => shared.set([7, 8], 4)); // race
  }
}
