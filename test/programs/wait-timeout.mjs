// expect: race
// idiom: Atomics.wait that times out (nobody notifies) and reads anyway: a timed-out wait synchronizes with nothing.
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
  const { at, step } = schedule(workerData.sched);
  const { word, data, who } = workerData;
  if (who === 'a') {
    at(0, () => {
      data[0] = 7; // race
    });
  } else {
    step(1);
    if (Atomics.wait(word, 0, 0, 5) !== 'timed-out') throw new Error('woken');
    const seen = data[0]; // race
    if (seen !== 7) throw new Error(`saw ${seen}`);
  }
}
