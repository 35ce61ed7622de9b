// expect: no race
// idiom: postMessage hand-off of a SharedArrayBuffer: write then post; the receiver reads it on 'message' and replies.
import { isMainThread, parentPort } from 'node:worker_threads';
import { join, spawn } from './sched.mjs';

if (isMainThread) {
  const w = spawn(import.meta.url, {});
  const sab = new SharedArrayBuffer(8);
  const data = new Int32Array(sab);
  data[0] = 20; // after new Worker(): only the postMessage below orders it before the worker's read
  w.postMessage(sab);
  const reply = await new Promise((resolve) => w.once('message', resolve));
  if (reply !== 'done' || data[1] !== 21) throw new Error(`reply ${reply}, data ${data[1]}`);
  await join(w);
} else {
  parentPort.once('message', (sab) => {
    const data = new Int32Array(sab);
    data[1] = data[0] + 1;
    parentPort.postMessage('done');
  });
}
