/**
 * The locks of a range check's pages, a run of consecutive pages per call (`src/live/shadow/page-locks.ts`,
 * `HeapAtomics.lockRange`/`unlockRange` of `src/live/memory/heap-atomics.ts`, issue 24 §1): in WebAssembly (a heap up
 * to 4 GiB) and by `Atomics` (past it), each lock taken by a compare-exchange of 0 in ascending order, stopping at a
 * held one, which is then waited for; released in order, waking the waiters of a lock that had some.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { PAGE_LOCK_STRIDE } from '../../src/live/memory/heap-atomics.js';
import { createState, StateViews } from '../../src/live/memory/state.js';
import { consecutive, lockSome, unlockSome } from '../../src/live/shadow/page-locks.js';
import { PAGE_INTS } from '../../src/live/shadow/table.js';

const WAITERS = 1 << 30;
const heaps = [
  ['WebAssembly', 64],
  ['Atomics', 4097],
] as const;

describe('page locks by runs of pages', () => {
  test('the stride of the runs is the word table page', () => {
    assert.equal(PAGE_LOCK_STRIDE, PAGE_INTS);
  });

  test('runs of consecutive pages', () => {
    const pages = Int32Array.from([32, 36, 40, 48, 52, 64]);
    assert.equal(consecutive(pages, 0, 6), 3);
    assert.equal(consecutive(pages, 1, 6), 2);
    assert.equal(consecutive(pages, 3, 6), 2);
    assert.equal(consecutive(pages, 5, 6), 1);
    assert.equal(consecutive(pages, 0, 2), 2); // not past n
  });

  test('runs of consecutive pages, long ones: as a page-by-page count (random ascending lists)', () => {
    let seed = 7; // xorshift32
    const random = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + random(300);
      const pages = new Int32Array(n);
      let p = 16 * random(8);
      for (let i = 0; i < n; i++) {
        pages[i] = p;
        p += PAGE_INTS * (random(60) === 0 ? 2 + random(3) : 1); // mostly consecutive, a gap now and then
      }
      for (let k = 0; k < n; k += 1 + random(20)) {
        let m = 1;
        while (k + m < n && pages[k + m] === pages[k] + m * PAGE_INTS) m++;
        assert.equal(consecutive(pages, k, n), m, `trial ${trial}, from ${k} of ${n}`);
      }
    }
  });

  for (const [name, shadowLimit] of heaps)
    test(`${name}: a run locked and released whole; a run stops at a held lock and after a lock with waiters`, () => {
      const s = new StateViews(createState({ onRace: 0, detector: 0, shadowLimit }));
      assert.equal(s.state.heapMemory !== undefined, name === 'WebAssembly');
      const { lockRange, unlockRange } = s.pages;
      const pages = Int32Array.from([32, 36, 40, 48]);
      assert.equal(lockSome(s, pages, 0, 4), 3);
      assert.equal(lockSome(s, pages, 3, 4), 1);
      for (const p of pages) assert.equal(s.heap[p], s.self, `page ${p}`);
      assert.equal(unlockSome(s, pages, 0, 4), 3);
      assert.equal(unlockSome(s, pages, 3, 4), 1);
      for (const p of pages) assert.equal(s.heap[p], 0, `page ${p}`);
      // the raw operations: stop at the lock held by another (7), and after the lock with a waiter
      s.heap[40] = 7;
      assert.equal(lockRange(32, 4, s.self), 2);
      assert.deepEqual([s.heap[32], s.heap[36], s.heap[40], s.heap[44]], [s.self, s.self, 7, 0]);
      s.heap[36] |= WAITERS;
      assert.equal(unlockRange(32, 2), 1); // page 32 released clean, page 36 released with its waiter
      assert.deepEqual([s.heap[32], s.heap[36], s.heap[40]], [0, 0, 7]);
      assert.equal(unlockRange(40, 1), 1); // 7 had no waiters bit: released
      assert.equal(s.heap[40], 0);
    });

  for (const [name, shadowLimit] of heaps)
    test(`${name}: a held page in a run is waited for, and a run's release wakes its waiter`, async () => {
      const s = new StateViews(createState({ onRace: 0, detector: 0, shadowLimit }));
      const buffer = s.state.heapMemory?.buffer ?? s.state.heap;
      const pages = Int32Array.from([32, 36, 40]);
      // the worker holds page 36, tells, then waits for page 40 (ours) as state.ts lock does, then releases 36
      const worker = new Worker(
        `const { workerData: { buffer }, parentPort } = require('node:worker_threads');
         const heap = new Int32Array(buffer);
         Atomics.store(heap, 36, 99);
         parentPort.postMessage('holding');
         let marked = 0;
         while (marked === 0) {
           const cur = Atomics.load(heap, 40);
           if (cur !== 0 && Atomics.compareExchange(heap, 40, cur, cur | (1 << 30)) === cur) marked = cur | (1 << 30);
         }
         parentPort.postMessage('waiting');
         const woken = Atomics.wait(heap, 40, marked, 20000);
         Atomics.store(heap, 36, 0);
         Atomics.notify(heap, 36, 1);
         parentPort.postMessage(woken);`,
        { eval: true, workerData: { buffer } },
      );
      const messages: string[] = [];
      const next = () => new Promise<string>((resolve) => worker.once('message', resolve));
      messages.push(await next()); // holding 36
      s.heap[40] = s.self; // we hold 40 (taken before: the worker marks itself its waiter)
      const waiting = next();
      messages.push(await waiting);
      assert.equal(s.heap[40], s.self | WAITERS);
      assert.equal(unlockSome(s, pages, 2, 3), 1); // released 40 with its waiter: woken
      const woken = await next();
      messages.push(woken);
      // 32 taken; 36 waited for while the worker holds it, or taken with 40
      let held = 0;
      while (held < 3) held += lockSome(s, pages, held, 3);
      assert.equal(held, 3);
      for (const p of pages) assert.equal(s.heap[p] & ~WAITERS, s.self, `page ${p}`);
      await new Promise((resolve) => worker.on('exit', resolve));
      assert.deepEqual(messages.slice(0, 2), ['holding', 'waiting']);
      assert.ok(['ok', 'not-equal'].includes(woken), woken);
      for (let k = 0; k < 3; ) k += unlockSome(s, pages, k, 3);
      for (const p of pages) assert.equal(s.heap[p], 0, `page ${p}`);
    });
});
