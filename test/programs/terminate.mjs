// expect: no race
// idiom: worker.terminate(): the worker writes, then blocks forever; main reads after the terminate() promise resolves.
import { isMainThread, workerData } from 'node:worker_threads';
import { schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const w = spawn(import.meta.url, { sched: s.buffer, data });
  s.step(1);
  const code = await w.terminate(); // resolves on the worker's 'exit' event (the exit → 'exit' edge)
  if (code !== 1 || data[0] !== 12) throw new Error(`exit code ${code}, data ${data[0]}`);
} else {
  const { at, sleep } = schedule(workerData.sched);
  const { data } = workerData;
  at(0, () => {
    data[0] = 12;
  });
  sleep(Infinity);
}
