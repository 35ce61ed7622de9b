// expect: no race
// idiom: escape analysis: the main thread fills a fresh SharedArrayBuffer before any worker sees it, then hands it to a worker in workerData; after the join it reads what the worker wrote.

import { isMainThread, workerData } from 'node:worker_threads';
import { join, spawn } from './sched.mjs';

if (isMainThread) {
  const data = new Int32Array(new SharedArrayBuffer(64 * 4));
  for (let i = 0; i < data.length; i++) data[i] = i; // private: no other thread can hold the buffer yet
  data.fill(1, 0, 8);
  const w = spawn(import.meta.url, { data });
  await join(w);
  if (data[0] !== 2 || data[63] !== 64) throw new Error(`saw ${data[0]}, ${data[63]}`);
} else {
  const { data } = workerData;
  for (let i = 0; i < data.length; i++) data[i] += 1;
}
