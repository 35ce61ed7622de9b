// Driver of make-synchronized: the asynchronous functions of a module, made synchronous. The package runs the
// module in a worker and waits with `Atomics.wait` on a SharedArrayBuffer semaphore for each answer, which it takes
// with `receiveMessageOnPort` (race-free: goldilocks must report nothing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import makeSynchronized from 'make-synchronized';

const module = makeSynchronized(new URL('./async-module.mjs', import.meta.url));

test('200 calls of a default and a named export return their own results', () => {
  for (let i = 0; i < 200; i++) {
    assert.equal(module.default(i), i + 1);
    assert.deepEqual(module.describe(i), { i, odd: i % 2 === 1 });
  }
});

test('a rejected call throws in the caller', () => {
  assert.throws(() => module.fail(5), /failed on 5/);
});

test('a large result (1 MiB string) comes back whole', () => {
  assert.equal(module.large(1 << 20), 'cd'.repeat(1 << 19));
});
