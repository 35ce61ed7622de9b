// expect: race
// idiom: Semaphore from goldilocks/sync with two permits used as a lock: both holders are inside at once.
import { Semaphore } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, i, at, handle, slot } = workers(import.meta.url, 2, () => ({
  handle: new Semaphore(2, 'pool').handle,
  slot: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
  if (slot[0] !== 2) throw new Error(`slot ${slot[0]}`);
} else {
  const sem = Semaphore.from(handle);
  at(i, () => sem.acquire()); // both hold a permit from step 1 on
  if (i === 0) {
    at(2, () => {
      slot[0] = 1; // race
    });
  } else {
    at(3, () => {
      slot[0] = 2; // race
    });
  }
  at(4 + i, () => sem.release());
}
