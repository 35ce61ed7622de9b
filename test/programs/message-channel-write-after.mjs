// expect: race
// idiom: a MessageChannel port transferred to a worker that writes AFTER posting: the delivery orders only what preceded the post.
import { isMainThread, MessageChannel, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const d = { sched: s.buffer, data };
  const a = spawn(import.meta.url, { ...d, port: port1, who: 'a' }, { transferList: [port1] });
  const b = spawn(import.meta.url, { ...d, port: port2, who: 'b' }, { transferList: [port2] });
  await Promise.all([join(a), join(b)]);
} else {
  const { at } = schedule(workerData.sched);
  const { data, port, who } = workerData;
  if (who === 'a') {
    port.postMessage('go');
    at(1, () => {
      data[0] = 9; // race
    });
  } else {
    port.once('message', () => {
      const seen = at(0, () => data[0]); // race
      if (seen !== 0) throw new Error(`saw ${seen}`);
      port.close();
    });
  }
}
