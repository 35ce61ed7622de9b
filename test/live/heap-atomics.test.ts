/**
 * The page locks' WebAssembly atomics (`src/live/memory/heap-atomics.ts`, issue 24 §1): the shadow heap is a shared
 * WebAssembly memory up to 4 GiB, a SharedArrayBuffer past it; both give compare-exchange and exchange that
 * interoperate with `Atomics` on the same words, also from another thread.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { heapAtomics, heapMemory } from '../../src/live/memory/heap-atomics.js';
import { createState, lockPage, StateViews, unlockPage } from '../../src/live/memory/state.js';

describe('heap atomics', () => {
  test('compare-exchange and exchange on the memory, seen by Atomics', () => {
    const memory = heapMemory(1 << 20);
    assert.ok(memory);
    const heap = new Int32Array(memory.buffer);
    const { cas, xchg } = heapAtomics(memory);
    const last = heap.length - 1;
    assert.equal(cas(last, 0, 7), 0);
    assert.equal(Atomics.load(heap, last), 7);
    assert.equal(cas(last, 0, 9), 7); // not 0: unchanged
    assert.equal(heap[last], 7);
    assert.equal(xchg(last, 3), 7);
    assert.equal(Atomics.compareExchange(heap, last, 3, 5), 3);
    assert.equal(cas(last, 5, 0), 5);
    assert.equal(heap[last], 0);
  });

  test('a memory of 4 GiB at most, in whole 64 KiB pages', () => {
    assert.equal(heapMemory(2 ** 32 + 65536), undefined);
    assert.equal(heapMemory(65536 + 4), undefined);
  });

  test('the state: a WebAssembly heap by default, a SharedArrayBuffer past 4 GiB, both locking', () => {
    for (const [shadowLimit, wasm] of [
      [64, true],
      [4097, false],
    ] as const) {
      const s = new StateViews(createState({ onRace: 0, detector: 0, shadowLimit }));
      assert.equal(s.state.heapMemory !== undefined, wasm);
      lockPage(s, 32);
      assert.equal(s.heap[32], s.self);
      unlockPage(s, 32);
      assert.equal(s.heap[32], 0);
    }
  });

  test("a lock taken by one thread's WebAssembly waits for another's, and is woken by its release", async () => {
    const s = new StateViews(createState({ onRace: 0, detector: 0, shadowLimit: 64 }));
    const memory = s.state.heapMemory as WebAssembly.Memory;
    lockPage(s, 64);
    // the worker takes the same lock with `Atomics` (as state.ts lock does), marking itself a waiter, then releases it
    const worker = new Worker(
      `const { workerData: { memory }, parentPort } = require('node:worker_threads');
       const heap = new Int32Array(memory.buffer);
       let woken = 'none';
       for (;;) {
         const cur = Atomics.load(heap, 64);
         if (cur === 0 && Atomics.compareExchange(heap, 64, 0, 99) === 0) break;
         if (cur !== 0 && Atomics.compareExchange(heap, 64, cur, cur | (1 << 30)) === cur) {
           parentPort.postMessage('waiting');
           woken = Atomics.wait(heap, 64, cur | (1 << 30), 20000);
         }
       }
       parentPort.postMessage(woken);
       Atomics.store(heap, 64, 0);`,
      { eval: true, workerData: { memory } },
    );
    const messages: string[] = [];
    await new Promise<void>((resolve) =>
      worker.on('message', (m: string) => {
        messages.push(m);
        if (m === 'waiting')
          unlockPage(s, 64); // WAITERS set: notifies
        else resolve();
      }),
    );
    await new Promise((resolve) => worker.on('exit', resolve));
    // woken by the notify (or the lock was free again before its wait began), not by the time-out
    assert.deepEqual(messages[0], 'waiting');
    assert.ok(['ok', 'not-equal'].includes(messages[1]), messages[1]);
    assert.equal(Atomics.load(s.heap, 64), 0);
  });
});
