// expect: race
// idiom: ReadWriteLock from goldilocks/sync misused: a writes while holding only a read lock, b reads under its own read lock at the same time.
import { ReadWriteLock } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, i, at, handle, cache } = workers(import.meta.url, 2, () => ({
  handle: new ReadWriteLock('cache').handle,
  cache: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  const rw = ReadWriteLock.from(handle);
  at(i, () => rw.readLock()); // both hold read locks from step 1 on
  if (i === 0) {
    at(2, () => {
      cache[0] = 17; // race
    });
  } else {
    const seen = at(3, () => cache[0]); // race
    if (seen !== 17) throw new Error(`saw ${seen}`);
  }
  at(4 + i, () => rw.readUnlock());
}
