// expect: race
// idiom: escape analysis: the main thread fills a fresh SharedArrayBuffer (unchecked while private), posts it to a running worker, then writes it again: the write after the send races with the worker's read.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const w = spawn(import.meta.url, { sched: s.buffer });
  const data = new Int32Array(new SharedArrayBuffer(16));
  for (let i = 0; i < data.length; i++) data[i] = 1;
  w.postMessage(data); // publishes it: the message edge orders only what preceded the post
  s.at(1, () => {
    data[0] = 9; // race
  });
  await join(w);
} else {
  const { at } = schedule(workerData.sched);
  parentPort.once('message', (data) => {
    const seen = at(0, () => data[0]); // race
    if (seen !== 1) throw new Error(`saw ${seen}`);
  });
}
