// expect: race
// idiom: race through a bulk write: a's fill() of elements 2-5 against b's plain read of element 3.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Float32Array(new SharedArrayBuffer(32)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => shared.fill(0.5, 2, 6)); // race
  } else {
    const seen = at(1, () => shared[3]); // race
    if (seen !== 0.5) throw new Error(`saw ${seen}`);
  }
}
