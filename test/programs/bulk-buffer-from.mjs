// expect: race
// idiom: race through Buffer.from(view), which copies the view's bytes: a wrote one of them.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Uint8Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(1, () => {
      shared[9] = 7; // race
    });
  } else {
    const copy = at(0, () => Buffer.from(shared)); // race
    if (copy.length !== 16) throw new Error(`copied ${copy.length} bytes`);
  }
}
