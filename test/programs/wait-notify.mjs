// expect: no race
// idiom: Atomics.wait/notify hand-off: b sleeps in Atomics.wait, a writes then notifies until one waiter wakes.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const word = new Int32Array(new SharedArrayBuffer(4));
  const data = new Float64Array(new SharedArrayBuffer(16));
  await runWorkers(import.meta.url, [
    { sched: s.buffer, word, data, who: 'a' },
    { sched: s.buffer, word, data, who: 'b' },
  ]);
} else {
  const { at, sleep, step, next } = schedule(workerData.sched);
  const { word, data, who } = workerData;
  if (who === 'a') {
    at(1, () => {
      data[0] = 2.5;
      data[1] = -1;
      // The only edge: this notify → b's woken wait (word never changes, so b can only be woken).
      while (Atomics.notify(word, 0, 1) !== 1) sleep(1);
    });
  } else {
    step(0);
    next();
    const r = Atomics.wait(word, 0, 0);
    if (r !== 'ok' || data[0] !== 2.5 || data[1] !== -1) throw new Error(`${r} ${data}`);
  }
}
