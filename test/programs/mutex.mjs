// expect: no race
// idiom: Mutex from goldilocks/sync, contended: b fails tryLock while a holds it, then blocks in lock() until a unlocks.
import { Mutex } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, i, at, step, next, mutex, counter } = workers(import.meta.url, 2, () => ({
  mutex: new Mutex('counter').handle,
  counter: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
  if (counter[0] !== 2) throw new Error(`counter ${counter[0]}`);
} else {
  const m = Mutex.from(mutex);
  if (i === 0) {
    at(0, () => m.lock());
    at(2, () => {
      counter[0] += 1;
      m.unlock();
    });
  } else {
    step(1);
    if (m.tryLock()) throw new Error('the mutex is not exclusive');
    next();
    m.lock(); // sleeps until a's unlock at step 2
    counter[0] += 1;
    m.unlock();
  }
}
