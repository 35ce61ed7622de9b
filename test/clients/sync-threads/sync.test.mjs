// Driver of sync-threads 1.0.1: `createSyncFn(file)` starts a worker per call and waits with `Atomics.wait` for
// the worker's `Atomics.store` of the result's length, then reads the serialized result from the shared buffer.
// Each function made here is called once: its buffer's first word is never reset, so a second call of the same
// function would not wait (the real race of docs/RESULTS.md, reproduced in examples/races/sync-threads-reuse.mjs).
// One call per function is race-free: goldilocks must report nothing.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const { createSyncFn } = createRequire(import.meta.url)('sync-threads');
const worker = fileURLToPath(new URL('./worker.cjs', import.meta.url));

test('20 functions, each called once, return their own results', () => {
  for (let i = 0; i < 20; i++) {
    const fn = createSyncFn(worker);
    assert.deepEqual(fn({ i }), { i, square: i * i, text: `#${i}`.repeat(i + 1) });
  }
});

test('a rejected call throws in the caller', () => {
  const fn = createSyncFn(worker);
  assert.throws(() => fn({ fail: 3 }), /failed on 3/);
});
