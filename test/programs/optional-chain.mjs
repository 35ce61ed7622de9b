// expect: race
// idiom: a shared element read through an optional chain (`box?.data[0]`) races with a worker's unordered write like any other read.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const box = { data: new Int32Array(new SharedArrayBuffer(8)) };
  const w = spawn(import.meta.url, { sched: s.buffer, data: box.data });
  const none = null;
  const seen = s.at(1, () => [none?.data[0], box?.data[0]]); // race
  await join(w);
  if (seen[0] !== undefined || seen[1] !== 4) throw new Error(`saw ${seen}`);
} else {
  const { at } = schedule(workerData.sched);
  at(0, () => {
    workerData.data[0] = 4; // race
  });
}
