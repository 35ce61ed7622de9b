// expect: race
// idiom: worker join done too late: main reads the worker's result while the worker is still running.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const w = spawn(import.meta.url, { sched: s.buffer, data });
  const seen = s.at(1, () => data[0]); // race
  await join(w);
  if (seen !== 11) throw new Error(`saw ${seen}`);
} else {
  const { at } = schedule(workerData.sched);
  const { data } = workerData;
  at(0, () => {
    data[0] = 11; // race
  });
}
