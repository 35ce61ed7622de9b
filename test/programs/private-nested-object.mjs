// expect: race
// idiom: escape analysis: a worker fills a fresh SharedArrayBuffer, posts it to the main thread deep inside an object (a Map in an array in an object), then writes it: the write after the send races with the main thread's read.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const w = spawn(import.meta.url, { sched: s.buffer });
  w.once('message', (m) => {
    const data = m.box.list[0].get('data');
    const seen = s.at(1, () => data[2]); // race
    if (seen !== 3) throw new Error(`saw ${seen}`);
  });
  await join(w);
} else {
  const { at } = schedule(workerData.sched);
  const data = new Float64Array(new SharedArrayBuffer(32));
  for (let i = 0; i < data.length; i++) data[i] = i + 1;
  parentPort.postMessage({ box: { list: [new Map([['data', data]])] } });
  at(0, () => {});
  at(2, () => {
    data[2] = 0; // race
  });
}
