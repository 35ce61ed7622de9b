// expect: race
// idiom: escape analysis: the main thread fills a fresh SharedArrayBuffer, sets it as environment data, starts a worker that reads it from getEnvironmentData, then writes it again: the write after new Worker() races with the worker's read.
import { getEnvironmentData, isMainThread, setEnvironmentData, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

const KEY = 'private-environment-data';
if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(32));
  for (let i = 0; i < data.length; i++) data[i] = 4;
  setEnvironmentData(KEY, data);
  const w = spawn(import.meta.url, { sched: s.buffer });
  s.at(1, () => {
    data[3] = 0; // race
  });
  await join(w);
} else {
  const { at } = schedule(workerData.sched);
  const data = getEnvironmentData(KEY);
  const seen = at(0, () => data[3]); // race
  if (seen !== 4) throw new Error(`saw ${seen}`);
}
