// expect: no race
// idiom: escape analysis: a worker fills a fresh SharedArrayBuffer while it is private, posts it to the main thread and writes nothing after; the main thread reads it on 'message' and again after the join.
import { isMainThread, parentPort } from 'node:worker_threads';
import { join, spawn } from './sched.mjs';

if (isMainThread) {
  const w = spawn(import.meta.url, {});
  const got = new Promise((resolve) => w.once('message', resolve));
  const data = await got;
  let sum = 0;
  for (let k = 0; k < data.length; k++) sum += data[k];
  await join(w);
  if (sum !== 120 || data[15] !== 15) throw new Error(`saw ${sum}, ${data[15]}`);
} else {
  const data = new Uint16Array(new SharedArrayBuffer(32));
  for (let k = 0; k < data.length; k++) data[k] = k;
  parentPort.postMessage(data);
}
