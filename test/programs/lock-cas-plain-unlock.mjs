// expect: race
// idiom: compareExchange spin lock released by a plain store: b's compareExchange races with a's plain unlock.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const lock = new Int32Array(new SharedArrayBuffer(4));
  const balance = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(import.meta.url, [
    { sched: s.buffer, lock, balance, who: 'a' },
    { sched: s.buffer, lock, balance, who: 'b' },
  ]);
  if (balance[0] !== 150) throw new Error(`balance is ${balance[0]}`);
} else {
  const { at } = schedule(workerData.sched);
  const { lock, balance, who } = workerData;
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
