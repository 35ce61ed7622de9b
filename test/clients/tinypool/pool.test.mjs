// Driver of tinypool (a piscina fork; Vitest's pool): 400 tasks on 2 workers. Each task adds to a shared counter
// array under a spin lock of `Atomics`, and the results come back through tinypool's own channels, which it
// signals with Atomics on a SharedArrayBuffer of its own (race-free: goldilocks must report nothing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Tinypool from 'tinypool';

test('400 tasks on 2 workers: results and a shared counter under a lock', async () => {
  const pool = new Tinypool({
    filename: new URL('./task.mjs', import.meta.url).href,
    minThreads: 2,
    maxThreads: 2,
  });
  const shared = new SharedArrayBuffer(16);
  const results = await Promise.all(Array.from({ length: 400 }, (_, i) => pool.run({ i, shared })));
  for (let i = 0; i < 400; i++) assert.equal(results[i], i * i);
  await pool.destroy();
  const total = new Float64Array(shared, 8, 1)[0];
  assert.equal(total, (399 * 400) / 2);
});

test('a throwing task rejects its promise', async () => {
  const pool = new Tinypool({ filename: new URL('./task.mjs', import.meta.url).href, maxThreads: 2 });
  await assert.rejects(pool.run({ i: -1 }), /negative task -1/);
  await pool.destroy();
});
