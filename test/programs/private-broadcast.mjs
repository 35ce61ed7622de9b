// expect: race
// idiom: escape analysis: a worker fills a fresh SharedArrayBuffer, broadcasts it on a BroadcastChannel, then writes it; the other worker reads its copy on 'message' (same memory).
import { BroadcastChannel, isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

const NAME = 'private-broadcast';
if (isMainThread) {
  const s = schedule();
  const a = spawn(import.meta.url, { sched: s.buffer, who: 'a' });
  const b = spawn(import.meta.url, { sched: s.buffer, who: 'b' });
  await Promise.all([join(a), join(b)]);
} else {
  const { at, step } = schedule(workerData.sched);
  const ch = new BroadcastChannel(NAME);
  if (workerData.who === 'a') {
    step(1); // b's channel exists
    const data = new Int32Array(new SharedArrayBuffer(64));
    for (let i = 0; i < data.length; i++) data[i] = 7;
    ch.postMessage(data);
    ch.close();
    at(2, () => {
      data[5] = 9; // race
    });
  } else {
    ch.onmessage = (e) => {
      const data = e.data;
      const seen = at(1, () => data[5]); // race
      if (seen !== 7) throw new Error(`saw ${seen}`);
      ch.close();
    };
    at(0, () => {});
  }
}
