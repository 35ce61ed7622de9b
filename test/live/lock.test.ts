/**
 * The detector's locks (`src/live/memory/state.ts` `lock`/`unlock`): a lock word holds its holder's thread id + 1 and
 * the WAITERS bit; a waiter takes the lock over from a holder marked dead at once, from one marked terminating
 * after TAKEOVER_MS, and never from a live one, which wakes it when it unlocks. Holders are simulated by writing
 * their id into the word (a thread stopped by `worker.terminate()` inside a check leaves exactly that); the waiter
 * is a worker, terminated when it is not done in time (so a broken takeover fails, not hangs, the test). The
 * end-to-end case is in runtime.test.ts ("a worker terminated inside a check").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
// The waiter imports the built module (npm test builds first): both sides use the same one.
import {
  CTL,
  createState,
  DEAD,
  ensureThread,
  rawAtomics,
  type SharedState,
  StateViews,
  TAKEOVER_MS,
  TERMINATING,
  unlock,
} from '../../dist/live/memory/state.js';

const WAITERS = 1 << 30;
const STATE_URL = new URL('../../dist/live/memory/state.js', import.meta.url).href;

/** Fresh state whose list lock is held by thread `holder` (word `holder + 1`, with `bits`), whose flags are `flags`. */
function heldBy(holder: number, flags: number, bits = 0): StateViews {
  const s = new StateViews(createState(0));
  ensureThread(s, holder);
  rawAtomics.store(s.threads, holder, flags);
  rawAtomics.store(s.ctl, CTL.listLock, (holder + 1) | bits);
  return s;
}

interface Locked {
  /** How long `lock` took (ms). */
  ms: number;
  /** The lock word right after `lock` returned, and the waiter's own lock value (thread id + 1). */
  word: number;
  self: number;
}

/**
 * A worker that takes the list lock of `state`, then unlocks and exits. `locking` resolves right before it calls
 * `lock`; `locked` once it holds it, or rejects when that took more than `limitMs` (the worker is terminated).
 */
function waiter(state: SharedState, limitMs: number) {
  const code = `
    const { parentPort, threadId, workerData } = require('node:worker_threads');
    import(workerData.url).then(({ rawAtomics, CTL, lock, StateViews, unlock }) => {
      const s = new StateViews(workerData.state);
      parentPort.postMessage('locking');
      const start = performance.now();
      lock(s, s.ctl, CTL.listLock);
      const ms = performance.now() - start;
      parentPort.postMessage({ ms, word: rawAtomics.load(s.ctl, CTL.listLock), self: threadId + 1 });
      unlock(s.ctl, CTL.listLock);
    });`;
  const w = new Worker(code, { eval: true, workerData: { url: STATE_URL, state } });
  let ready: () => void = () => {};
  const locking = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const got = new Promise<Locked>((resolve, reject) => {
    w.on('message', (m) => (m === 'locking' ? ready() : resolve(m)));
    w.on('error', reject);
  });
  const timer = setTimeout(() => void w.terminate(), limitMs);
  const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
  const locked = Promise.race([
    got,
    exited.then(() => Promise.reject(new Error(`the waiter did not get the lock within ${limitMs} ms`))),
  ]).finally(() => clearTimeout(timer));
  return { locking, locked, exited };
}

describe('lock takeover', () => {
  for (const bits of [0, WAITERS]) {
    test(`a lock held by a dead thread is taken over at once (word ${bits ? 'with' : 'without'} WAITERS)`, async () => {
      const s = heldBy(1000, DEAD, bits);
      const w = waiter(s.state, 10_000);
      const { ms, word, self } = await w.locked;
      assert.ok(ms < TAKEOVER_MS / 2, `took ${ms} ms`);
      assert.equal(word, self | WAITERS);
      await w.exited;
      assert.equal(rawAtomics.load(s.ctl, CTL.listLock), 0, 'the new holder unlocked');
    });
  }

  test('a lock held by a terminating thread is taken over after TAKEOVER_MS, not before', async () => {
    const s = heldBy(1001, TERMINATING);
    const { ms, word, self } = await waiter(s.state, 10_000).locked;
    assert.ok(ms >= TAKEOVER_MS && ms < TAKEOVER_MS + 1000, `took ${ms} ms`);
    assert.equal(word, self | WAITERS);
  });

  test('a live holder keeps its lock; a waiter sets WAITERS, and unlock wakes it', async () => {
    const holder = 1002;
    const s = heldBy(holder, 0);
    const w = waiter(s.state, 10_000);
    let done = false;
    void w.locked.then(
      () => {
        done = true;
      },
      () => {},
    );
    await w.locking;
    await sleep(TAKEOVER_MS + 500); // longer than a terminating holder would keep it
    assert.equal(done, false, 'the waiter took a live holder’s lock');
    assert.equal(rawAtomics.load(s.ctl, CTL.listLock), (holder + 1) | WAITERS, 'the waiter announced itself');
    unlock(s.ctl, CTL.listLock); // as the holder would: it sees WAITERS and notifies
    const { word, self } = await w.locked;
    // the woken waiter takes the lock with WAITERS set: it cannot know whether it was the last one waiting
    assert.equal(word, self | WAITERS);
    await w.exited;
    assert.equal(rawAtomics.load(s.ctl, CTL.listLock), 0);
  });
});
