// expect: no race
// idiom: receiveMessageOnPort: the worker writes then posts on a MessagePort; main takes the message synchronously.
import { isMainThread, MessageChannel, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  const w = spawn(import.meta.url, { sched: s.buffer, data, port: port1 }, { transferList: [port1] });
  s.step(1);
  const m = receiveMessageOnPort(port2);
  if (m?.message !== 'written') throw new Error(`got ${m}`);
  if (data[0] !== 7 || data[1] !== 8) throw new Error(`saw ${data[0]}, ${data[1]}`);
  port2.close();
  await join(w);
} else {
  const { at } = schedule(workerData.sched);
  const { data, port } = workerData;
  at(0, () => {
    data[0] = 7;
    data[1] = 8;
    port.postMessage('written');
  });
}
