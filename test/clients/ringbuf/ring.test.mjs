// Driver of ringbuf.js (the reference lock-free single-producer single-consumer ring of the Web Audio world): a
// producer worker pushes numbered elements, this thread pops them and checks their order and values. The ring's
// storage is written and read with plain element accesses; only its read and write pointers are Atomics, which
// is what orders the element writes before the reads (race-free: goldilocks must report nothing).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { RingBuffer } from 'ringbuf.js';

const nap = new Int32Array(new SharedArrayBuffer(4));

/** Pops `total` elements from `ring` into `out` (a typed array), napping 1 ms whenever the ring is empty. */
function drain(ring, out, chunk) {
  let got = 0;
  let turn = 0;
  while (got < out.length) {
    const want = Math.min(out.length - got, chunk[turn++ % chunk.length]);
    const n = ring.pop(out, want, got);
    if (n === 0) Atomics.wait(nap, 0, 0, 1);
    got += n;
  }
}

function produce(kind, sab, total) {
  const worker = new Worker(new URL('./producer.mjs', import.meta.url), { workerData: { kind, sab, total } });
  return new Promise((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`producer exited ${code}`))));
  });
}

test('Int32 elements, pushed in chunks of varying sizes, arrive in order', async () => {
  const total = 100_000;
  const sab = RingBuffer.getStorageForCapacity(257, Int32Array);
  const ring = new RingBuffer(sab, Int32Array);
  const done = produce('int32', sab, total);
  const out = new Int32Array(total);
  drain(ring, out, [1, 7, 64, 300, 13]);
  await done;
  for (let i = 0; i < total; i++)
    if (out[i] !== i * 3 + 1) assert.fail(`element ${i}: ${out[i]} ≠ ${i * 3 + 1}`);
  assert.ok(ring.empty());
});

test('Float32 elements written with writeCallback arrive in order', async () => {
  const total = 20_000;
  const sab = RingBuffer.getStorageForCapacity(100, Float32Array);
  const ring = new RingBuffer(sab, Float32Array);
  const done = produce('float32', sab, total);
  const out = new Float32Array(total);
  drain(ring, out, [50, 3, 99]);
  await done;
  for (let i = 0; i < total; i++) if (out[i] !== i / 4) assert.fail(`element ${i}: ${out[i]} ≠ ${i / 4}`);
});
