// expect: race
// idiom: includes of a value that is not there reads every element: one written concurrently by a worker races.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Uint8Array(new SharedArrayBuffer(8));
  data[1] = 7;
  const w = spawn(import.meta.url, { sched: s.buffer, data });
  const found = s.at(1, () => data.includes(8)); // race
  await join(w);
  if (found) throw new Error('found 8');
} else {
  const { at } = schedule(workerData.sched);
  at(0, () => {
    workerData.data[3] = 9; // race
  });
}
