import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { threadId, Worker } from 'node:worker_threads';
import {
  Barrier,
  Condition,
  Mutex,
  ReadWriteLock,
  Semaphore,
  type SyncRef,
  setSyncObserver,
} from '../../src/sync/index.js';

const WORKER = new URL('../fixtures/sync-worker.mjs', import.meta.url);

/** Per-test limit: a lost wake-up shows as a hang, this turns it into a failure. */
const LIMIT = { timeout: 10_000 };

/** Runs a scenario of fixtures/sync-worker.ts; resolves with what it posts, rejects with what it throws. */
function run(scenario: string, data: Record<string, unknown> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let result: unknown;
    const w = new Worker(WORKER, { workerData: { scenario, ...data }, execArgv: [] });
    w.on('message', (m) => {
      result = m;
    });
    w.on('error', reject);
    w.on('exit', (code) =>
      code === 0 ? resolve(result) : reject(new Error(`${scenario} exited with ${code}`)),
    );
  });
}

const ints = (n: number) => new Int32Array(new SharedArrayBuffer(n * 4));

/** Resolves once `a[i]` satisfies `ok`, without blocking the event loop. */
async function until(a: Int32Array, i: number, ok: (v: number) => boolean): Promise<void> {
  for (let v = Atomics.load(a, i); !ok(v); v = Atomics.load(a, i)) await Atomics.waitAsync(a, i, v, 5).value;
}

/** Milliseconds `fn` took, and what it returned. */
function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const r = fn();
  return [r, performance.now() - t];
}

describe('Mutex', () => {
  test('4 workers × 3000 non-atomic increments under the lock lose none', LIMIT, async () => {
    const m = new Mutex('counter');
    const data = ints(1);
    await Promise.all(
      [0, 1, 2, 3].map(() => run('count', { mutex: m.handle, data: data.buffer, iterations: 3000 })),
    );
    assert.equal(data[0], 12000);
  });

  test('tryLock, timeouts and ownership against a lock held by another thread', LIMIT, async () => {
    const m = new Mutex('held');
    const flag = ints(1);
    const holder = run('hold', { mutex: m.handle, flag: flag.buffer });
    await until(flag, 0, (v) => v === 1);
    assert.equal(m.tryLock(), false);
    const [got, ms] = timed(() => m.tryLock(40));
    assert.equal(got, false);
    assert.ok(ms >= 39, `tryLock(40) returned after ${ms} ms`);
    assert.throws(() => m.unlock(), /does not hold it/);
    Atomics.store(flag, 0, 2);
    Atomics.notify(flag, 0);
    assert.equal(m.tryLock(5000), true);
    await holder;
    assert.equal(
      await run('unlockForeign', { mutex: m.handle }),
      `mutex held: unlock by a thread that does not hold it`,
    );
    assert.throws(() => m.lock(), /already held by this thread/);
    assert.throws(() => m.tryLock(), /already held by this thread/);
    m.unlock();
    assert.throws(() => m.unlock(), /does not hold it/);
    assert.throws(() => m.tryLock(-1), RangeError);
    assert.throws(() => m.tryLock(Number.NaN), RangeError);
  });

  test('withLock unlocks when the function throws', LIMIT, () => {
    const m = new Mutex();
    assert.throws(() =>
      m.withLock(() => {
        throw new Error('boom');
      }),
    );
    assert.equal(m.tryLock(), true);
    m.unlock();
  });
});

describe('placement', () => {
  test('primitives share a caller-given buffer; from() attaches without resetting', LIMIT, () => {
    const buffer = new SharedArrayBuffer(Mutex.BYTES + Semaphore.BYTES);
    const m = new Mutex('a', { buffer, byteOffset: 0 });
    const s = new Semaphore(2, 's', { buffer, byteOffset: Mutex.BYTES });
    m.lock();
    assert.equal(s.tryAcquire(), true);
    const s2 = Semaphore.from(s.handle);
    assert.deepEqual(s2.handle, { buffer, byteOffset: 8, name: 's' });
    assert.equal(s2.tryAcquire(), true);
    assert.equal(s.tryAcquire(), false);
    assert.equal(Barrier.from(new Barrier(3).handle).parties, 3);
    m.unlock();
  });

  test('bad placements and counts throw', LIMIT, () => {
    const buffer = new SharedArrayBuffer(16);
    assert.throws(() => new Mutex('x', { buffer, byteOffset: 2 }), RangeError);
    assert.throws(() => new Mutex('x', { buffer, byteOffset: 12 }), RangeError);
    assert.throws(
      () => new Mutex('x', { buffer: new ArrayBuffer(8) as SharedArrayBuffer, byteOffset: 0 }),
      TypeError,
    );
    assert.throws(() => new Semaphore(-1), RangeError);
    assert.throws(() => new Barrier(0), RangeError);
    assert.throws(() => new Semaphore(0x7fffffff).release(), RangeError);
    assert.throws(() => new Semaphore(0).release(0), RangeError);
  });

  test('the package exports goldilocks/sync', LIMIT, async () => {
    const sync = await import('goldilocks/sync');
    assert.equal(typeof sync.Mutex, 'function');
    assert.equal(typeof sync.setSyncObserver, 'function');
  });
});

describe('Condition', () => {
  test('bounded queue: 1 producer, 3 consumers, every item consumed once', LIMIT, async () => {
    const items = 2000;
    const consumers = 3;
    const shared = {
      mutex: new Mutex('queue').handle,
      notEmpty: new Condition('notEmpty').handle,
      notFull: new Condition('notFull').handle,
      ring: ints(3 + 4).buffer,
      seen: ints(items + 1).buffer,
      items,
      consumers,
    };
    const results = await Promise.all([
      run('produce', shared),
      ...Array.from({ length: consumers }, () => run('consume', shared)),
    ]);
    const taken = results.slice(1) as [number, number][];
    assert.equal(
      taken.reduce((s, [sum]) => s + sum, 0),
      (items * (items + 1)) / 2,
    );
    assert.equal(
      taken.reduce((s, [, n]) => s + n, 0),
      items,
    );
    assert.ok(new Int32Array(shared.seen).slice(1).every((k) => k === 1));
  });

  test('wait times out without a notify, and holds the mutex again after', LIMIT, () => {
    const m = new Mutex();
    const c = new Condition();
    m.lock();
    const [woken, ms] = timed(() => c.wait(m, 30));
    assert.equal(woken, false);
    assert.ok(ms >= 29, `wait(30) returned after ${ms} ms`);
    assert.throws(() => m.lock(), /already held/);
    m.unlock();
    assert.throws(() => c.wait(m, 1), /does not hold it/);
    assert.equal(c.notifyAll(), 0);
  });
});

describe('Semaphore', () => {
  test('6 workers never have more than 2 inside a Semaphore(2)', LIMIT, async () => {
    const s = new Semaphore(2, 'pool');
    const stats = ints(2);
    await Promise.all(
      Array.from({ length: 6 }, () =>
        run('bounded', { semaphore: s.handle, stats: stats.buffer, iterations: 300 }),
      ),
    );
    assert.equal(stats[0], 0);
    assert.ok(stats[1] >= 1 && stats[1] <= 2, `max inside ${stats[1]}`);
    assert.equal(s.tryAcquire(), true);
    assert.equal(s.tryAcquire(), true);
    assert.equal(s.tryAcquire(), false);
  });

  test('tryAcquire timeout and release(k)', LIMIT, () => {
    const s = new Semaphore(0);
    const [got, ms] = timed(() => s.tryAcquire(20));
    assert.equal(got, false);
    assert.ok(ms >= 19, `tryAcquire(20) returned after ${ms} ms`);
    s.release(3);
    assert.deepEqual(
      [s.tryAcquire(), s.tryAcquire(), s.tryAcquire(), s.tryAcquire()],
      [true, true, true, false],
    );
  });
});

describe('Barrier', () => {
  test('4 workers × 50 rounds: phases never mix, one serial thread per generation', LIMIT, async () => {
    const parties = 4;
    const rounds = 50;
    const b = new Barrier(parties, 'phase');
    const [phase, serial, bad] = [ints(parties), ints(2 * rounds), ints(1)];
    phase.fill(-1);
    await Promise.all(
      Array.from({ length: parties }, (_, index) =>
        run('phases', {
          barrier: b.handle,
          phase: phase.buffer,
          serial: serial.buffer,
          bad: bad.buffer,
          rounds,
          index,
        }),
      ),
    );
    assert.equal(bad[0], 0);
    assert.deepEqual([...serial], new Array(2 * rounds).fill(1));
  });
});

describe('ReadWriteLock', () => {
  test('4 workers: writers exclusive, readers never see a half-done write', LIMIT, async () => {
    const rw = new ReadWriteLock('table');
    const [data, stats] = [ints(2), ints(4)];
    await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        run('readWrite', {
          rwlock: rw.handle,
          data: data.buffer,
          stats: stats.buffer,
          iterations: 400,
          index,
        }),
      ),
    );
    assert.equal(stats[2], 0, 'violations');
    assert.deepEqual([stats[0], stats[1]], [0, 0]);
  });

  test(
    'readers hold it together; a waiting writer keeps new readers out; a writer that gives up lets them in',
    LIMIT,
    async () => {
      const rw = new ReadWriteLock('rw');
      // Word 0: the state (bits 16–29 count waiting writers); word 1: the readers' wait sequence.
      const words = new Int32Array(rw.handle.buffer, rw.handle.byteOffset, 2);
      rw.readLock();
      assert.equal(await run('tryRead', { rwlock: rw.handle, timeoutMs: 1000 }), true);
      assert.equal(await run('tryWrite', { rwlock: rw.handle, timeoutMs: 20 }), false);
      // A writer blocked behind our read lock: new readers wait, even while only readers hold the lock.
      const writer = run('tryWrite', { rwlock: rw.handle, timeoutMs: 5000 });
      await until(words, 0, (v) => (v & 0x3fff0000) !== 0);
      assert.equal(rw.tryReadLock(20), false);
      rw.readUnlock();
      assert.equal(await writer, true);
      // A reader blocked behind a waiting writer is woken when that writer times out.
      const flag = ints(1);
      const reader = run('readWhenTold', { rwlock: rw.handle, flag: flag.buffer });
      await until(flag, 0, (v) => v === 1);
      rw.readLock();
      const quitter = run('tryWrite', { rwlock: rw.handle, timeoutMs: 600 });
      await until(words, 0, (v) => (v & 0x3fff0000) !== 0);
      Atomics.store(flag, 0, 2);
      Atomics.notify(flag, 0);
      // A successful notify on the readers' wait sequence shows the reader asleep there (it wakes, finds the
      // writer still waiting, and sleeps again).
      while (Atomics.notify(words, 1, 1) === 0) {
        assert.notEqual(words[0] & 0x3fff0000, 0, 'the writer gave up before the reader blocked');
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      assert.equal(await quitter, false);
      assert.equal(await reader, true);
      rw.readUnlock();
      assert.equal(words[0], 0);
    },
  );

  test('ownership errors', LIMIT, () => {
    const rw = new ReadWriteLock();
    assert.throws(() => rw.readUnlock(), /without a read lock/);
    assert.throws(() => rw.writeUnlock(), /does not hold it/);
    rw.writeLock();
    assert.throws(() => rw.writeLock(), /already write-locked/);
    assert.throws(() => rw.tryReadLock(), /while holding the write lock/);
    rw.writeUnlock();
    assert.equal(rw.tryWriteLock(), true);
    rw.writeUnlock();
  });
});

describe('observer', () => {
  /** Records `op name word0`, word0 being the first word of the ref's buffer when the report is made. */
  function record(): string[] {
    const log: string[] = [];
    const entry = (op: string) => (ref: SyncRef) => {
      log.push(`${op} ${ref.kind} ${ref.name}@${ref.byteOffset} ${new Int32Array(ref.buffer)[0]}`);
    };
    setSyncObserver({
      acquire: entry('acquire'),
      release: entry('release'),
      publish: entry('publish'),
      subscribe: entry('subscribe'),
    });
    return log;
  }

  test('each primitive reports the expected events, ordered around its atomic operations', LIMIT, () => {
    const log = record();
    try {
      const m = new Mutex('m');
      m.withLock(() => undefined);
      const c = new Condition('c');
      m.lock();
      c.wait(m, 1);
      c.notify();
      m.unlock();
      const s = new Semaphore(1, 's');
      s.acquire();
      s.tryAcquire();
      s.release();
      const b = new Barrier(1, 'b');
      b.wait();
      b.wait();
      const rw = new ReadWriteLock('rw');
      rw.readLock();
      rw.readUnlock();
      rw.writeLock();
      rw.writeUnlock();
    } finally {
      setSyncObserver(undefined);
    }
    new Mutex('unobserved').withLock(() => undefined);
    /** Word 0 of a mutex held by this thread: its `threadId + 1`, times 2 (no waiter). */
    const HELD = 2 * (threadId + 1);
    assert.deepEqual(log, [
      `acquire mutex m@0 ${HELD}`,
      `release mutex m@0 ${HELD}`,
      `acquire mutex m@0 ${HELD}`,
      // Condition.wait that times out: the mutex's release and re-acquire, no subscribe.
      `release mutex m@0 ${HELD}`,
      `acquire mutex m@0 ${HELD}`,
      'publish condition c@0 0',
      `release mutex m@0 ${HELD}`,
      // Semaphore(1): subscribe after taking the permit, publish before giving it back.
      'subscribe semaphore s@0 0',
      'publish semaphore s@0 0',
      // Barrier(1): word 0 is parties; generations alternate refs.
      'publish barrier b#0@0 1',
      'subscribe barrier b#0@0 1',
      'publish barrier b#1@4 1',
      'subscribe barrier b#1@4 1',
      // Read side: word 0 counts the read lock; write side: bit 30.
      'subscribe rwlock rw.writes@4 1',
      'publish rwlock rw.reads@8 1',
      'acquire rwlock rw@0 1073741824',
      'subscribe rwlock rw.reads@8 1073741824',
      'publish rwlock rw.writes@4 1073741824',
      'release rwlock rw@0 1073741824',
    ]);
  });

  test(
    'a notified Condition.wait subscribes between the release and re-acquire of the mutex',
    LIMIT,
    async () => {
      const m = new Mutex('m');
      const c = new Condition('c');
      const notifier = run('notifyUntilWoken', { condition: c.handle });
      const log = record();
      try {
        m.lock();
        assert.equal(c.wait(m, 5000), true);
        m.unlock();
      } finally {
        setSyncObserver(undefined);
      }
      await notifier;
      assert.deepEqual(
        log.map((l) => l.split('@')[0]),
        ['acquire mutex m', 'release mutex m', 'subscribe condition c', 'acquire mutex m', 'release mutex m'],
      );
    },
  );
});
