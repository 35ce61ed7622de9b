// Driver of synckit: a function made synchronous by `createSyncFn`, served by a worker (`runAsWorker`). synckit
// waits for each result with `Atomics.wait` on a SharedArrayBuffer and takes it with `receiveMessageOnPort`: the
// caller reads nothing shared without that synchronization (race-free: goldilocks must report nothing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createSyncFn } from 'synckit';

const call = createSyncFn(fileURLToPath(new URL('./worker.mjs', import.meta.url)));

test('200 calls return their own results', () => {
  for (let i = 0; i < 200; i++) assert.deepEqual(call('square', i), { i, square: i * i });
});

test('a rejected call throws in the caller', () => {
  assert.throws(() => call('fail', 7), /failed on 7/);
});

test('a large result (1 MiB string) comes back whole', () => {
  const s = call('large', 1 << 20);
  assert.equal(s.length, 1 << 20);
  assert.equal(s, 'ab'.repeat(1 << 19));
});
