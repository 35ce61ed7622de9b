// expect: race
// idiom: worker start edge: main writes AFTER new Worker(), so the start does not order it before the worker's read.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const w = spawn(import.meta.url, { sched: s.buffer, data });
  s.at(0, () => {
    data[0] = 3; // race
  });
  await join(w);
} else {
  const { at } = schedule(workerData.sched);
  const { data } = workerData;
  const seen = at(1, () => data[0]); // race
  if (seen !== 3) throw new Error(`saw ${seen}`);
}
