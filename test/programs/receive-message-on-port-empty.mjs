// expect: race
// idiom: receiveMessageOnPort that finds no message (undefined) and reads anyway: no edge from the writer.
import { isMainThread, MessageChannel, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const w = spawn(import.meta.url, { sched: s.buffer, data, port: port1 }, { transferList: [port1] });
  s.step(1);
  if (receiveMessageOnPort(port2) !== undefined) throw new Error('a message already');
  const seen = data[0]; // race
  s.next();
  if (seen !== 7) throw new Error(`saw ${seen}`);
  await join(w);
  port2.close();
} else {
  const { at } = schedule(workerData.sched);
  const { data, port } = workerData;
  at(0, () => {
    data[0] = 7; // race
  });
  at(2, () => port.postMessage('written'));
}
