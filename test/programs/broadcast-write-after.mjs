// expect: race
// idiom: BroadcastChannel: a broadcasts a fresh SharedArrayBuffer, then writes it; b reads its copy on 'message' (same memory).
import { BroadcastChannel, isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

const NAME = 'broadcast-write-after';
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
    const data = new Int32Array(new SharedArrayBuffer(4));
    ch.postMessage(data); // the delivery orders only what preceded the post
    ch.close();
    at(2, () => {
      data[0] = 9; // race
    });
  } else {
    ch.onmessage = (e) => {
      const data = e.data;
      const seen = at(1, () => data[0]); // race
      if (seen !== 0) throw new Error(`saw ${seen}`);
      ch.close();
    };
    at(0, () => {});
  }
}
