import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type AccessLog, STM, setStmObserver, type Transaction } from '../../src/stm/index.js';
import { Mutex } from '../../src/sync/index.js';

const shared = (bytes: number) => new SharedArrayBuffer(bytes);

describe('STM: one thread', () => {
  test('reads see the transaction’s own writes; commit publishes them for every element kind', () => {
    const stm = new STM();
    const kinds = [
      [new Int8Array(shared(8)), -5],
      [new Uint8Array(shared(8)), 250],
      [new Uint8ClampedArray(shared(8)), 255],
      [new Int16Array(shared(16)), -30000],
      [new Uint16Array(shared(16)), 65000],
      [new Int32Array(shared(32)), -2e9],
      [new Uint32Array(shared(32)), 4e9],
      [new Float32Array(shared(32)), 1.5],
      [new Float64Array(shared(64)), Math.PI],
      [new BigInt64Array(shared(64)), -(2n ** 62n)],
      [new BigUint64Array(shared(64)), 2n ** 63n + 5n],
    ] as const;
    stm.atomic((tx) => {
      for (const [view, value] of kinds) {
        tx.write(view, 3, value);
        assert.equal(tx.read(view, 3), value);
        assert.equal(view[3], typeof value === 'bigint' ? 0n : 0, 'not written before the commit');
      }
    });
    for (const [view, value] of kinds) assert.equal(view[3], value);
    const clamped = new Uint8ClampedArray(shared(4));
    stm.atomic((tx) => tx.write(clamped, 0, 300));
    assert.equal(clamped[0], 255, 'values convert as element stores do');
  });

  test('mixed-width reads and writes of one buffer behave as plain element accesses', () => {
    const op = fc.record({
      kind: fc.constantFrom('Uint8Array', 'Int16Array', 'Int32Array', 'Float64Array', 'BigInt64Array'),
      write: fc.boolean(),
      index: fc.nat(31),
      value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    });
    const stm = new STM({ orecs: 16 });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), fc.boolean(), (ops, abort) => {
        const memory = shared(64);
        const model = new ArrayBuffer(64);
        const view = (buffer: ArrayBufferLike, kind: string) =>
          new (globalThis as unknown as Record<string, new (b: ArrayBufferLike) => Uint8Array>)[kind](buffer);
        const run = (tx: Transaction) => {
          for (const o of ops) {
            const [v, m] = [view(memory, o.kind), view(model, o.kind)];
            const i = o.index % m.length;
            const value = o.kind === 'BigInt64Array' ? BigInt(o.value) : o.value;
            if (o.write) {
              tx.write(v, i, value as number);
              m[i] = value as number;
            } else assert.equal(tx.read(v, i), m[i]);
          }
        };
        try {
          stm.atomic((tx) => {
            run(tx);
            if (abort) throw new Error('abort');
          });
        } catch {}
        assert.deepEqual(
          new Uint8Array(memory),
          abort ? new Uint8Array(64) : new Uint8Array(model),
          'after the commit, memory is the model; after an abort, untouched',
        );
      }),
      { numRuns: 200 },
    );
  });

  test('an exception aborts: nothing is written and the same exception propagates', () => {
    const stm = new STM();
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(15), fc.integer()), { minLength: 1 }), (writes) => {
        const data = new Int32Array(shared(64));
        data.fill(7);
        const boom = new Error('boom');
        assert.throws(
          () =>
            stm.atomic((tx) => {
              for (const [i, v] of writes) tx.write(data, i, v);
              throw boom;
            }),
          (e) => e === boom,
        );
        assert.deepEqual([...data], new Array(16).fill(7));
      }),
    );
  });

  test('nested atomic flattens into the outer transaction', () => {
    const stm = new STM();
    const data = new Int32Array(shared(16));
    const result = stm.atomic((outer) => {
      outer.write(data, 0, 1);
      const inner = stm.atomic((tx) => {
        assert.equal(tx, outer, 'the inner call runs with the outer transaction');
        assert.equal(tx.read(data, 0), 1);
        tx.write(data, 1, 2);
        return 'inner';
      });
      assert.equal(data[1], 0, 'the inner call does not commit on its own');
      assert.throws(() =>
        STM.from(stm.handle).atomic((tx) => {
          assert.equal(tx, outer, 'flattening is by STM, not by object');
          tx.write(data, 2, 3);
          throw new Error('inner failure');
        }),
      );
      return inner;
    });
    assert.equal(result, 'inner');
    assert.deepEqual(
      [...data],
      [1, 2, 3, 0],
      'a caught inner exception keeps the inner writes (flat nesting)',
    );

    assert.throws(() =>
      stm.atomic((tx) => {
        tx.write(data, 3, 9);
        stm.atomic(() => {
          throw new Error('uncaught inner');
        });
      }),
    );
    assert.equal(data[3], 0, 'an inner exception left uncaught aborts the outer transaction too');

    const other = new STM();
    stm.atomic((tx) => {
      other.atomic((inner) => {
        assert.notEqual(inner, tx, 'another STM runs its own transaction');
        inner.write(data, 3, 4);
      });
      assert.equal(data[3], 4, 'which commits on its own');
    });
  });

  test('the API’s errors', () => {
    const stm = new STM();
    const data = new Int32Array(shared(16));
    const bad: [unknown, number, ErrorConstructor, RegExp][] = [
      [new Int32Array(4), 0, TypeError, /not over a SharedArrayBuffer/],
      [new DataView(shared(8)), 0, TypeError, /not a typed array/],
      [[1, 2, 3], 0, TypeError, /not a typed array/],
      [null, 0, TypeError, /not a typed array/],
      [data, -1, RangeError, /out of range/],
      [data, 4, RangeError, /out of range/],
      [data, 1.5, RangeError, /out of range/],
      [data, Number.NaN, RangeError, /out of range/],
      [new Int32Array(shared(16), 4, 2), 2, RangeError, /length 2/],
    ];
    for (const [view, index, type, message] of bad) {
      assert.throws(() => stm.atomic((tx) => tx.read(view as Int32Array, index)), {
        name: type.name,
        message,
      });
      assert.throws(() => stm.atomic((tx) => tx.write(view as Int32Array, index, 1)), {
        name: type.name,
        message,
      });
    }
    assert.throws(() => stm.atomic((tx) => tx.write(data, 0, 1n as unknown as number)), TypeError);
    assert.throws(() => stm.atomic((tx) => tx.write(new BigInt64Array(shared(8)), 0, 1 as never)), TypeError);

    let leaked: Transaction | undefined;
    stm.atomic((tx) => {
      leaked = tx;
    });
    assert.throws(() => leaked!.read(data, 0), { name: 'TypeError', message: /transaction has ended/ });
    assert.throws(() => leaked!.write(data, 0, 1), { name: 'TypeError', message: /transaction has ended/ });
    assert.throws(() => stm.atomic((tx) => Promise.resolve(tx.write(data, 0, 5))), {
      name: 'TypeError',
      message: /returned a promise/,
    });
    assert.equal(data[0], 0, 'an async function’s transaction writes nothing');

    const another = new STM();
    const handles: unknown[] = [
      undefined,
      null,
      42,
      {},
      new Mutex('m').handle,
      { kind: 'goldilocks/stm', buffer: new ArrayBuffer(128), id: stm.id },
      { kind: 'goldilocks/stm', buffer: shared(128), id: 0 },
      { kind: 'goldilocks/stm', buffer: new Mutex('n').handle.buffer, id: 0 },
      { ...stm.handle, buffer: another.handle.buffer },
      { ...stm.handle, id: stm.id + 1 },
    ];
    for (const h of handles) assert.throws(() => STM.from(h as never), TypeError, String(h));
    for (const orecs of [0, 3, 8, 2 ** 25, Number.NaN]) assert.throws(() => new STM({ orecs }), RangeError);
    assert.equal(STM.from(stm.handle).id, stm.id);
    assert.notEqual(another.id, stm.id);
  });
});

describe('STM: the observer (the runtime’s view of commits)', () => {
  /** Runs `body` with an observer that records each commit's logs; @returns the records. */
  function observed(body: () => void, onCommit?: () => void): [AccessLog, AccessLog][] {
    const commits: [AccessLog, AccessLog][] = [];
    setStmObserver({
      atomics: Atomics,
      commit(reads, writes) {
        commits.push([[...reads], [...writes]]);
        onCommit?.();
      },
    });
    try {
      body();
    } finally {
      setStmObserver(undefined);
    }
    return commits;
  }

  test('one report per committed transaction, at its commit, with the bytes read and written', () => {
    const stm = new STM();
    const data = new Int32Array(shared(32));
    const bytes = new Uint8Array(data.buffer);
    data[1] = 5;
    const commits = observed(() => {
      stm.atomic((tx) => {
        tx.write(data, 2, tx.read(data, 1) + 1);
        tx.read(data, 2); // served by the write set: not a read of memory
        tx.write(bytes, 13, 1);
      });
      assert.throws(() =>
        stm.atomic((tx) => {
          tx.write(data, 0, tx.read(data, 0) + 1);
          throw new Error('abort');
        }),
      );
      stm.atomic((tx) => tx.read(data, 7)); // read-only: commit(R, ∅)
      stm.atomic(() => 0); // no access: nothing to report
    });
    assert.deepEqual(commits, [
      [
        [data.buffer, 0, 0xf0],
        [data.buffer, 8, 0x2f],
      ],
      [[data.buffer, 24, 0xf0], []],
    ]);
    assert.equal(data[2], 6);
  });

  test('a throwing observer aborts the commit: nothing is written, the exception propagates', () => {
    const stm = new STM();
    const data = new Int32Array(shared(8));
    const race = new Error('DataRaceException');
    observed(
      () =>
        assert.throws(
          () => stm.atomic((tx) => tx.write(data, 0, 1)),
          (e) => e === race,
        ),
      () => {
        throw race;
      },
    );
    assert.equal(data[0], 0);
    assert.equal(
      stm.atomic((tx) => {
        tx.write(data, 0, 2);
        return tx.read(data, 0);
      }),
      2,
      'the records were released',
    );
  });

  test('prepare gets the logs commit gets, before the records are locked, once per attempt that reaches its commit; then commit or cancel', () => {
    const stm = new STM();
    const data = new Int32Array(shared(16));
    const words = new Int32Array(stm.handle.buffer);
    /** Whether some ownership record (from word 16, `layout.ts`) is locked (its low bit set). */
    const anyLocked = () => words.subarray(16).some((w) => (w & 1) !== 0);
    const prepared: [AccessLog, AccessLog, boolean][] = [];
    const committed: [AccessLog, AccessLog, boolean][] = [];
    let attempts = 0;
    const order: string[] = [];
    setStmObserver({
      atomics: Atomics,
      prepare: (r, w) => {
        order.push('prepare');
        prepared.push([[...r], [...w], anyLocked()]);
      },
      cancel: () => order.push(`cancel${anyLocked() ? ' (records locked)' : ''}`),
      commit: (r, w) => {
        order.push('commit');
        committed.push([[...r], [...w], anyLocked()]);
      },
    });
    try {
      stm.atomic((tx) => {
        const v = tx.read(data, 1);
        tx.write(data, 2, v + 1);
        if (++attempts === 1) {
          // a commit by another thread between this read and the commit: the first attempt fails its validation
          Atomics.add(words, 3, 1);
          for (let i = 16; i < words.length; i++) words[i] = 2;
        }
      });
      stm.atomic(() => 0); // no access: neither prepared nor reported
    } finally {
      setStmObserver(undefined);
    }
    const logs: [AccessLog, AccessLog] = [
      [data.buffer, 0, 0xf0],
      [data.buffer, 8, 0x0f],
    ];
    assert.equal(attempts, 2);
    assert.deepEqual(prepared, [
      [...logs, false],
      [...logs, false],
    ]);
    assert.deepEqual(committed, [[...logs, true]]);
    assert.deepEqual(
      order,
      ['prepare', 'cancel', 'prepare', 'commit'],
      'the failed attempt cancelled, its records released',
    );
    assert.equal(data[2], 1);
  });

  test('under an observer each distinct record read is validated once per validation, none while the clock is at rv; a read-only attempt whose read was overwritten runs again', () => {
    const stm = new STM();
    const data = new Int32Array(shared(32));
    const words = new Int32Array(stm.handle.buffer);
    /** The ownership records start at word 16 (`layout.ts`); the clock is word 3. */
    const RECORDS = 16;
    let preparing = false;
    const recordLoads: number[] = [];
    const atomics = {
      ...Object.fromEntries(
        ['store', 'add', 'sub', 'compareExchange', 'wait', 'notify'].map((n) => [
          n,
          (Atomics as unknown as Record<string, unknown>)[n],
        ]),
      ),
      load: (ta: Int32Array, i: number) => {
        if (preparing && ta.buffer === words.buffer && i >= RECORDS) recordLoads.push(i);
        return Atomics.load(ta, i);
      },
    } as unknown as typeof Atomics;
    const reports: AccessLog[] = [];
    setStmObserver({
      atomics,
      prepare: () => {
        preparing = true; // from here on, the loads of records are the validations'
      },
      cancel: () => {
        preparing = false;
      },
      commit: (r, _w, validate) => {
        const valid = validate();
        if (valid) reports.push([...r]);
        preparing = false;
        return valid;
      },
    });
    /** Reads elements 0 and 1 (one 8-byte stripe, one record) and 2 (another); `between` runs after the reads. */
    const readThree = (between: (attempt: number) => void) => {
      let attempts = 0;
      recordLoads.length = 0;
      stm.atomic((tx) => {
        const sum = tx.read(data, 0) + tx.read(data, 1) + tx.read(data, 2);
        between(++attempts);
        return sum;
      });
      return attempts;
    };
    try {
      assert.equal(
        readThree(() => {}),
        1,
      );
      assert.deepEqual(recordLoads, [], 'no commit since rv: nothing to validate');
      assert.equal(
        readThree((attempt) => {
          if (attempt === 1) Atomics.add(words, 3, 1); // another commit, of other records: the clock moved
        }),
        1,
      );
      const distinct = [...new Set(recordLoads)];
      assert.equal(distinct.length, 2, 'two records read');
      assert.equal(recordLoads.length, 4, 'each once per validation: before the report and in it');
      assert.equal(
        readThree((attempt) => {
          if (attempt === 1) {
            // another commit that wrote what was read: the clock and every record at a version past rv
            const v = Atomics.add(words, 3, 1) + 1;
            for (let i = RECORDS; i < words.length; i++) words[i] = 2 * v;
          }
        }),
        2,
        'the read-only attempt failed its validation and ran again',
      );
    } finally {
      setStmObserver(undefined);
    }
    assert.equal(reports.length, 3, 'one report per transaction');
  });

  test('under an observer a commit overtaken by one that advanced the clock after it and wrote what it read is not reported', () => {
    const stm = new STM();
    const data = new Int32Array(shared(64));
    const words = new Int32Array(stm.handle.buffer);
    const RECORDS = 16;
    const verdicts: boolean[] = [];
    setStmObserver({
      atomics: Atomics,
      commit: (_r, _w, validate) => {
        const other: number[] = [];
        if (verdicts.length === 0) {
          // another commit, after this one's advance (wv = rv + 1), writes what this one read and reaches its report
          // first: it holds the records it writes (here every record this commit does not hold) and moved the clock
          Atomics.add(words, 3, 1);
          for (let i = RECORDS; i < words.length; i++)
            if ((words[i] & 1) === 0) {
              other.push(i);
              words[i] |= 1;
            }
        }
        const valid = validate();
        verdicts.push(valid);
        // its write-back done: its records released at its write version
        const version = Atomics.load(words, 3);
        for (const i of other) words[i] = 2 * version;
        return valid;
      },
    });
    let attempts = 0;
    try {
      stm.atomic((tx) => {
        attempts++;
        tx.write(data, 8, tx.read(data, 0) + 1); // two stripes, two records
      });
    } finally {
      setStmObserver(undefined);
    }
    assert.deepEqual(
      verdicts,
      [false, true],
      'the first report found the read record locked by the other commit',
    );
    assert.equal(attempts, 2);
    assert.equal(data[8], 1);
  });

  test('an attempt aborted by a conflict is not reported; the STM uses the observer’s Atomics', () => {
    const stm = new STM();
    const data = new Int32Array(shared(8));
    const calls: string[] = [];
    const counting = new Proxy(Atomics, {
      get: (target, name: keyof typeof Atomics) => {
        calls.push(String(name));
        return target[name];
      },
    });
    let attempts = 0;
    const commits: [AccessLog, AccessLog][] = [];
    setStmObserver({ atomics: counting, commit: (r, w) => commits.push([[...r], [...w]]) });
    calls.length = 0;
    try {
      stm.atomic((tx) => {
        const v = tx.read(data, 0);
        if (++attempts === 1) {
          // what a commit by another thread does: the clock and every record advance to version 1 > rv = 0
          const words = new Int32Array(stm.handle.buffer);
          Atomics.add(words, 3, 1);
          for (let i = 16; i < words.length; i++) words[i] = 2;
        }
        tx.write(data, 0, v + 1);
      });
    } finally {
      setStmObserver(undefined);
    }
    assert.equal(attempts, 2);
    assert.deepEqual(commits, [
      [
        [data.buffer, 0, 0x0f],
        [data.buffer, 0, 0x0f],
      ],
    ]);
    assert.ok(calls.includes('compareExchange') && calls.includes('load'), calls.join());
  });
});
