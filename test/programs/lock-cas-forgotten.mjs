// expect: race
// idiom: compareExchange spin lock that one side forgets to take: b reads the guarded value without the lock.
import { workers } from './sched.mjs';

const { main, joined, who, at, lock, balance } = workers(import.meta.url, ['a', 'b'], () => ({
  lock: new Int32Array(new SharedArrayBuffer(4)),
  balance: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (who === 'a') {
    at(0, () => {
      while (Atomics.compareExchange(lock, 0, 0, 1) !== 0);
      balance[0] = 100; // race
      Atomics.store(lock, 0, 0);
    });
  } else {
    const seen = at(1, () => balance[0]); // race
    if (seen !== 100) throw new Error(`saw ${seen}`);
  }
}
