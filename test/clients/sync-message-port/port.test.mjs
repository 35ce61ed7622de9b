// Driver of sync-message-port (Sass's synchronous MessagePort): messages both ways between this thread and a
// worker, received synchronously. The package counts messages in a SharedArrayBuffer with Atomics and takes them
// with `receiveMessageOnPort`; the messages themselves are structured clones, not shared (race-free: goldilocks
// must report nothing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { SyncMessagePort } from 'sync-message-port';

test('500 requests and replies, received synchronously on both sides', async () => {
  const channel = SyncMessagePort.createChannel();
  const local = new SyncMessagePort(channel.port1);
  const worker = new Worker(new URL('./echo.mjs', import.meta.url), {
    workerData: { port: channel.port2 },
    transferList: [channel.port2],
  });
  const exited = new Promise((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', resolve);
  });
  assert.equal(local.receiveMessage(), 'ready');
  for (let i = 0; i < 500; i++) {
    local.postMessage({ i, text: 'x'.repeat(i % 50) });
    assert.deepEqual(local.receiveMessage(), { i, length: i % 50, twice: 2 * i });
  }
  local.postMessage('stop');
  assert.equal(local.receiveMessage({ closedValue: 'closed' }), 'closed');
  local.close();
  assert.equal(await exited, 0);
});
