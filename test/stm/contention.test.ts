import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { STM } from '../../src/stm/index.js';

const WORKER = new URL('../fixtures/stm-worker.mjs', import.meta.url);
const WORKERS = 3;
/** Per-test limit: a deadlock or a livelock shows as a hang, this turns it into a failure. */
const LIMIT = { timeout: 30_000 };

/** Workers of fixtures/stm-worker.mjs, kept across property runs (starting a worker costs tens of ms). */
class Pool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private next = 0;

  constructor(n: number) {
    for (let i = 0; i < n; i++) {
      const w = new Worker(WORKER, { execArgv: [] });
      w.on('message', ({ id, result, error }) => {
        const p = this.pending.get(id)!;
        this.pending.delete(id);
        if (error === undefined) p.resolve(result);
        else p.reject(new Error(error));
      });
      w.on('error', (e) => {
        for (const p of this.pending.values()) p.reject(e);
      });
      this.workers.push(w);
    }
  }

  /** Runs `scenario` on worker `i`; resolves with its result. */
  run<T>(i: number, scenario: string, data: object): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.workers[i].postMessage({ id, scenario, data });
    });
  }

  close(): Promise<number[]> {
    return Promise.all(this.workers.map((w) => w.terminate()));
  }
}

let pool: Pool;
before(() => {
  pool = new Pool(WORKERS);
});
after(() => pool.close());

/** The stats words of the fixture: violations seen in transactions, retries, checks in attempts that aborted. */
const stats = () => new Int32Array(new SharedArrayBuffer(12));

describe('STM: workers under contention', () => {
  test(
    'bank transfers keep the total and every balance; no transaction sees a torn total',
    LIMIT,
    async () => {
      const ACCOUNTS = 4;
      const transfer = fc.tuple(
        fc.nat(ACCOUNTS - 1),
        fc.nat(ACCOUNTS - 1),
        fc.integer({ min: 1, max: 100 }),
        fc.nat(9).map((n) => n === 0),
        fc.boolean(),
      );
      const kind = fc.constantFrom('Int32Array', 'Float64Array', 'BigInt64Array');
      const counters = stats();
      await fc.assert(
        fc.asyncProperty(
          kind,
          fc.array(fc.array(transfer, { minLength: 100, maxLength: 300 }), {
            minLength: WORKERS,
            maxLength: WORKERS,
          }),
          async (kind, programs) => {
            const stm = new STM({ orecs: 16 });
            const width = kind === 'Int32Array' ? 4 : 8;
            const buffer = new SharedArrayBuffer(ACCOUNTS * width);
            const big = kind === 'BigInt64Array';
            const accounts =
              kind === 'Int32Array'
                ? new Int32Array(buffer)
                : kind === 'Float64Array'
                  ? new Float64Array(buffer)
                  : new BigInt64Array(buffer);
            for (let i = 0; i < ACCOUNTS; i++) accounts[i] = big ? 1000n : 1000;
            const expected = new Array(ACCOUNTS).fill(1000);
            for (const ops of programs)
              for (const [from, to, amount, throws] of ops)
                if (!throws) {
                  expected[from] -= amount;
                  expected[to] += amount;
                }
            const results = await Promise.all(
              programs.map((ops, i) =>
                pool.run<{ thrown: number }>(i, 'bank', {
                  stm: stm.handle,
                  accounts: buffer,
                  kind,
                  ops,
                  total: 1000 * ACCOUNTS,
                  stats: counters.buffer,
                }),
              ),
            );
            const thrown = programs.flat().filter((op) => op[3]).length;
            assert.equal(
              results.reduce((n, r) => n + r.thrown, 0),
              thrown,
            );
            assert.deepEqual(
              [...accounts].map(Number),
              expected,
              'no update lost, no aborted transfer written',
            );
            assert.equal(counters[0], 0, 'no transaction observed a total other than the invariant');
          },
        ),
        { numRuns: 12 },
      );
      assert.ok(counters[1] > 0, `the workers did conflict (retries: ${counters[1]})`);
    },
  );

  test('a transactional linked multiset never loses or duplicates an element', LIMIT, async () => {
    const NODES = 3 * 40;
    const op = fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20 }));
    const counters = stats();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 100, maxLength: 300 }), {
          minLength: WORKERS,
          maxLength: WORKERS,
        }),
        async (programs) => {
          const stm = new STM({ orecs: 64 });
          const heap = new Int32Array(new SharedArrayBuffer((NODES + 1) * 8));
          const per = NODES / WORKERS;
          const results = await Promise.all(
            programs.map((ops, w) =>
              pool.run<{ inserted: number[]; removed: number[]; free: number[] }>(w, 'multiset', {
                stm: stm.handle,
                heap: heap.buffer,
                free: Array.from({ length: per }, (_, k) => 1 + w * per + k),
                ops,
                stats: counters.buffer,
              }),
            ),
          );
          const values: number[] = [];
          const seen = new Set<number>();
          for (let node = heap[0]; node !== 0; node = heap[2 * node + 1]) {
            assert.ok(!seen.has(node), `node ${node} linked twice`);
            seen.add(node);
            values.push(heap[2 * node]);
          }
          const count = new Map<number, number>();
          for (const r of results) {
            for (const v of r.inserted) count.set(v, (count.get(v) ?? 0) + 1);
            for (const v of r.removed) count.set(v, (count.get(v) ?? 0) - 1);
            for (const node of r.free) assert.ok(!seen.has(node), `node ${node} both free and linked`);
          }
          const expected = [...count].flatMap(([v, n]) => new Array(n).fill(v)).sort((a, b) => a - b);
          assert.deepEqual(
            values,
            expected,
            'the list holds exactly the inserted values not removed, sorted',
          );
          assert.equal(seen.size + results.reduce((n, r) => n + r.free.length, 0), NODES, 'no node lost');
          assert.equal(counters[0], 0, 'no traversal saw a torn list');
        },
      ),
      { numRuns: 8 },
    );
  });

  test('an attempt that sees a concurrent commit retries without observing a torn state', LIMIT, async () => {
    const stm = new STM();
    const accounts = new Int32Array(new SharedArrayBuffer(8));
    const flag = new Int32Array(new SharedArrayBuffer(8));
    const other = pool.run(0, 'commitWhenAsked', {
      stm: stm.handle,
      accounts: accounts.buffer,
      flag: flag.buffer,
    });
    while (Atomics.load(flag, 1) !== 1) await Atomics.waitAsync(flag, 1, 0, 50).value;
    const seen: [number, number][] = [];
    const sum = stm.atomic((tx) => {
      const a = tx.read(accounts, 0);
      if (seen.length === 0) {
        // Let the worker commit acc[0]++, acc[1]++ between this attempt's two reads.
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
        while (Atomics.load(flag, 0) !== 2) Atomics.wait(flag, 0, 1, 1000);
        seen.push([a, Number.NaN]);
      }
      const b = tx.read(accounts, 1);
      seen.push([a, b]);
      return a + b;
    });
    await other;
    assert.deepEqual(seen, [
      [0, Number.NaN],
      [1, 1],
    ]);
    assert.equal(sum, 2, 'the first attempt aborted at its second read (its rv predates the commit)');
  });

  test('a handle works in a worker; malformed handles throw TypeError there too', LIMIT, async () => {
    const stm = new STM();
    assert.equal(await pool.run(1, 'from', { handle: stm.handle }), 'ok');
    assert.match(
      String(await pool.run(1, 'from', { handle: { ...stm.handle, id: 1 } })),
      /^TypeError: stm: the handle's id/,
    );
    assert.match(
      String(await pool.run(1, 'from', { handle: { buffer: stm.handle.buffer } })),
      /^TypeError: stm: STM.from needs/,
    );
  });
});
