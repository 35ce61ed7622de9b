// expect: no race
// idiom: spin lock built from an Atomics.compareExchange loop, released by Atomics.store; b spins while a holds it.
import { workers } from './sched.mjs';

const tryLock = (lock) => Atomics.compareExchange(lock, 0, 0, 1) === 0;
const unlock = (lock) => Atomics.store(lock, 0, 0);

const { main, joined, who, at, step, next, lock, counter } = workers(import.meta.url, ['a', 'b'], () => ({
  lock: new Int32Array(new SharedArrayBuffer(4)),
  counter: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
  if (counter[0] !== 2) throw new Error(`counter is ${counter[0]}`);
} else {
  if (who === 'a') {
    at(0, () => {
      while (!tryLock(lock));
    });
    at(2, () => {
      counter[0] += 1;
      unlock(lock);
    });
  } else {
    step(1);
    if (tryLock(lock)) throw new Error('the lock is not exclusive');
    next();
    while (!tryLock(lock)); // spins until a's unlock at step 2
    counter[0] += 1;
    unlock(lock);
  }
}
