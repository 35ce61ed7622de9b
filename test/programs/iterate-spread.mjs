// expect: race
// idiom: spreading a shared view reads every element: one written concurrently by a worker races.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Uint8Array(new SharedArrayBuffer(8));
  const w = spawn(import.meta.url, { sched: s.buffer, data });
  const copy = s.at(1, () => [...data]); // race
  await join(w);
  if (copy[2] !== 9) throw new Error(`saw ${copy}`);
} else {
  const { at } = schedule(workerData.sched);
  at(0, () => {
    workerData.data[2] = 9; // race
  });
}
