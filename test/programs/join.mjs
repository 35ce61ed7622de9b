// expect: no race
// idiom: worker start and join: main writes before new Worker(), the worker reads and writes, main reads after 'exit'.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, spawn } from './sched.mjs';

if (isMainThread) {
  const data = new Int32Array(new SharedArrayBuffer(8));
  data[0] = 10;
  const w = spawn(import.meta.url, { data });
  await join(w);
  if (data[1] !== 11) throw new Error(`data[1] is ${data[1]}`);
  data[0] = 0;
} else {
  const { data } = workerData;
  data[1] = data[0] + 1;
}
