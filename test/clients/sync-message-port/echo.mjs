// The worker of port.test.mjs: answers each request synchronously until 'stop', then closes its port.
import { workerData } from 'node:worker_threads';
import { SyncMessagePort } from 'sync-message-port';

const remote = new SyncMessagePort(workerData.port);
remote.postMessage('ready');
for (;;) {
  const m = remote.receiveMessage();
  if (m === 'stop') break;
  remote.postMessage({ i: m.i, length: m.text.length, twice: 2 * m.i });
}
remote.close();
