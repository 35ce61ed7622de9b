// expect: no race
// idiom: nested workers: main → a → b, each writing before spawning and reading after joining its child.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, spawn } from './sched.mjs';

if (isMainThread) {
  const data = new Int32Array(new SharedArrayBuffer(12));
  data[0] = 1;
  await join(spawn(import.meta.url, { data, depth: 1 }));
  if (data[0] !== 1 || data[1] !== 2 || data[2] !== 4)
    throw new Error(`data ${data[0]} ${data[1]} ${data[2]}`);
} else if (workerData.depth === 1) {
  const { data } = workerData;
  data[1] = data[0] + 1;
  await join(spawn(import.meta.url, { data, depth: 2 }));
  if (data[2] !== 3) throw new Error(`data[2] is ${data[2]}`);
  data[2] += 1;
} else {
  const { data } = workerData;
  data[2] = data[1] + 1;
}
