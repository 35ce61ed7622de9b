// expect: no race
// idiom: escape analysis: the main thread initializes a fresh SharedArrayBuffer with Atomics and plain writes while it is private, then starts a worker with it; the worker reads plainly and the main thread reads after the join.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, spawn } from './sched.mjs';

if (isMainThread) {
  const data = new Int32Array(new SharedArrayBuffer(16 * 4));
  Atomics.store(data, 0, 5);
  for (let i = 1; i < data.length; i++) data[i] = Atomics.load(data, i - 1) + 1;
  const w = spawn(import.meta.url, { data });
  await join(w);
  if (data[15] !== 25) throw new Error(`saw ${data[15]}`);
} else {
  const { data } = workerData;
  data[15] = data[14] + data[0] + 1;
}
