// expect: race
// idiom: Atomics.wait/notify hand-off where the notifier writes after notifying: the wake-up orders nothing after it.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const word = new Int32Array(new SharedArrayBuffer(4));
  const data = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(import.meta.url, [
    { sched: s.buffer, word, data, who: 'a' },
    { sched: s.buffer, word, data, who: 'b' },
  ]);
} else {
  const { at, sleep, step, next } = schedule(workerData.sched);
  const { word, data, who } = workerData;
  if (who === 'a') {
    at(1, () => {
      while (Atomics.notify(word, 0, 1) !== 1) sleep(1);
      data[0] = 42; // race
    });
  } else {
    step(0);
    next();
    if (Atomics.wait(word, 0, 0) !== 'ok') throw new Error('not woken');
    const seen = at(2, () => data[0]); // race
    if (seen !== 42) throw new Error(`saw ${seen}`);
  }
}
