// expect: race
// idiom: worker.terminate() without waiting for it: main reads before the terminated worker has exited.
import { isMainThread, workerData } from 'node:worker_threads';
import { schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const w = spawn(import.meta.url, { sched: s.buffer, data });
  s.step(1);
  const exited = w.terminate();
  const seen = data[0]; // race
  if ((await exited) !== 1 || seen !== 12) throw new Error(`saw ${seen}`);
} else {
  const { at, sleep } = schedule(workerData.sched);
  const { data } = workerData;
  at(0, () => {
    data[0] = 12; // race
  });
  sleep(Infinity);
}
