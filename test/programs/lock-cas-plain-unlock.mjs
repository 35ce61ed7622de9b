// expect: race
// idiom: compareExchange spin lock released by a plain store: b's compareExchange races with a's plain unlock.
import { workers } from './sched.mjs';

const { main, joined, who, at, lock, balance } = workers(import.meta.url, ['a', 'b'], () => ({
  lock: new Int32Array(new SharedArrayBuffer(4)),
  balance: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
  if (balance[0] !== 150) throw new Error(`balance is ${balance[0]}`);
} else {
  if (who === 'a') {
    at(0, () => {
      while (Atomics.compareExchange(lock, 0, 0, 1) !== 0);
      balance[0] += 100;
      lock[0] = 0; // race
    });
  } else {
    at(1, () => {
      while (Atomics.compareExchange(lock, 0, 0, 1) !== 0); // race
      balance[0] += 50;
      Atomics.store(lock, 0, 0);
    });
  }
}
