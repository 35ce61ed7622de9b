// expect: no race
// idiom: Semaphore from goldilocks/sync as a signal: b blocks in acquire() until a writes and releases.
import { Semaphore } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, i, at, step, next, handle, data } = workers(import.meta.url, 2, () => ({
  handle: new Semaphore(0, 'ready').handle,
  data: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  const sem = Semaphore.from(handle);
  if (i === 0) {
    at(1, () => {
      data[0] = 4;
      data[1] = 5;
      sem.release();
    });
  } else {
    step(0);
    next();
    sem.acquire(); // sleeps until a's release at step 1
    if (data[0] * data[1] !== 20) throw new Error(`data ${data[0]} ${data[1]}`);
  }
}
