// expect: no race
// idiom: publication by one atomic store: b's Atomics.load reads a's Atomics.store, then b reads the element plainly.
import { workers } from './sched.mjs';

const { main, joined, i, at, v } = workers(import.meta.url, 2, () => ({
  v: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => Atomics.store(v, 0, 7));
  } else {
    // the store synchronizes-with this load (it reads from it), so the store happens before the plain read
    const seen = at(1, () => (Atomics.load(v, 0) === 7 ? v[0] : -1));
    if (seen !== 7) throw new Error(`saw ${seen}`);
  }
}
