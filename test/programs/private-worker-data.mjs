// expect: race
// idiom: escape analysis: the main thread fills a fresh SharedArrayBuffer, starts a worker with it in workerData, then writes it again: the write after new Worker() races with the worker's read.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Uint8Array(new SharedArrayBuffer(256));
  for (let i = 0; i < data.length; i++) data[i] = i;
  const w = spawn(import.meta.url, { sched: s.buffer, data });
  s.at(1, () => {
    data[200] = 0; // race
  });
  await join(w);
} else {
  const { at } = schedule(workerData.sched);
  const { data } = workerData;
  const seen = at(0, () => data[200]); // race
  if (seen !== 200) throw new Error(`saw ${seen}`);
}
