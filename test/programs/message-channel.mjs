// expect: no race
// idiom: a MessageChannel whose two ports are transferred to two workers: a writes then posts, b reads on 'message'.
import { isMainThread, MessageChannel, workerData } from 'node:worker_threads';
import { join, spawn } from './sched.mjs';

if (isMainThread) {
  const data = new Float64Array(new SharedArrayBuffer(16));
  const { port1, port2 } = new MessageChannel();
  const a = spawn(import.meta.url, { data, port: port1, who: 'a' }, { transferList: [port1] });
  const b = spawn(import.meta.url, { data, port: port2, who: 'b' }, { transferList: [port2] });
  await Promise.all([join(a), join(b)]);
  if (data[1] !== 3.5) throw new Error(`data[1] is ${data[1]}`);
} else {
  const { data, port, who } = workerData;
  if (who === 'a') {
    data[0] = 1.75;
    port.postMessage('go');
  } else {
    port.once('message', () => {
      data[1] = data[0] * 2;
      port.close();
    });
  }
}
