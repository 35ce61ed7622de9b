// expect: race
// idiom: postMessage hand-off where the receiver reads before the message arrives (it has the buffer from workerData).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const w = spawn(import.meta.url, { sched: s.buffer, data });
  s.at(0, () => {
    data[0] = 5; // race
  });
  w.postMessage('ready');
  await join(w);
} else {
  const { at } = schedule(workerData.sched);
  const { data } = workerData;
  const early = at(1, () => data[0]); // race
  parentPort.once('message', () => {
    if (early !== 5 || data[0] !== 5) throw new Error(`saw ${early}, ${data[0]}`);
  });
}
