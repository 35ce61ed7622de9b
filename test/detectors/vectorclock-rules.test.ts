/**
 * The vector-clock transfer rules (src/detectors/vectorclock/rules.ts) on small clocks, over a plain store of
 * arrays, and the offline store of the four clock tables (SyncClocks, src/detectors/vectorclock/clocks.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClockTable, SyncClocks, SyncTable, syncKey } from '../../src/detectors/vectorclock/clocks.js';
import * as rules from '../../src/detectors/vectorclock/rules.js';

/** Clocks of width 3 named by string keys. */
class ArrayClocks implements rules.ClockStore<string> {
  readonly c = new Map<string, number[]>();
  constructor(init: Record<string, number[]>) {
    for (const [k, v] of Object.entries(init)) this.c.set(k, v.slice());
  }
  get(k: string): number[] {
    return this.c.get(k) ?? [0, 0, 0];
  }
  join(dst: string, src: string): void {
    const d = this.get(dst);
    const s = this.get(src);
    this.c.set(
      dst,
      d.map((x, i) => Math.max(x, s[i])),
    );
  }
  copy(dst: string, src: string): void {
    this.c.set(dst, this.get(src).slice());
  }
  tick(c: string, t: number): void {
    const v = this.get(c).slice();
    v[t]++;
    this.c.set(c, v);
  }
  snapshot(): Record<string, number[]> {
    return Object.fromEntries([...this.c].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** Thread 0's clock, thread 1's clock and a synchronization object's clock before each rule. */
const before = () => new ArrayClocks({ C0: [4, 1, 0], C1: [0, 3, 0], X: [2, 2, 5] });

describe('vector-clock rules', () => {
  test('acquire: C_t ⊔= L_l, nothing else moves', () => {
    const s = before();
    rules.acquire(s, 'C0', 'X');
    assert.deepEqual(s.snapshot(), { C0: [4, 2, 5], C1: [0, 3, 0], X: [2, 2, 5] });
  });

  test('release: L_l ⊔= C_t, then C_t[t]++ (the lock does not see the increment)', () => {
    const s = before();
    rules.release(s, 'C0', 0, 'X');
    assert.deepEqual(s.snapshot(), { C0: [5, 1, 0], C1: [0, 3, 0], X: [4, 2, 5] });
  });

  test('Java volatile read and write join both ways (publish / subscribe)', () => {
    const s = before();
    rules.volatileWrite(s, 'C0', 0, 'X');
    rules.volatileRead(s, 'C1', 'X');
    assert.deepEqual(s.snapshot(), { C0: [5, 1, 0], C1: [4, 3, 5], X: [4, 2, 5] });
  });

  test('ECMA-262 atomic write copies C_t into V_v (earlier writes drop out), then C_t[t]++', () => {
    const s = before();
    rules.atomicWrite(s, 'C0', 0, 'X');
    assert.deepEqual(s.snapshot(), { C0: [5, 1, 0], C1: [0, 3, 0], X: [4, 1, 0] });
    rules.atomicRead(s, 'C1', 'X');
    assert.deepEqual(s.get('C1'), [4, 3, 0]);
  });

  test('read-modify-write: the atomic read (C_t ⊔= V_v), then the atomic write (V_v := C_t, inc)', () => {
    const s = before();
    rules.atomicReadModifyWrite(s, 'C1', 1, 'X');
    assert.deepEqual(s.snapshot(), { C0: [4, 1, 0], C1: [2, 4, 5], X: [2, 3, 5] });
  });

  test('fork: C_u ⊔= C_t, C_t[t]++', () => {
    const s = before();
    rules.fork(s, 'C0', 0, 'C1');
    assert.deepEqual(s.snapshot(), { C0: [5, 1, 0], C1: [4, 3, 0], X: [2, 2, 5] });
  });

  test('join: C_t ⊔= C_u, C_u[u]++', () => {
    const s = before();
    rules.join(s, 'C0', 'C1', 1);
    assert.deepEqual(s.snapshot(), { C0: [4, 3, 0], C1: [0, 4, 0], X: [2, 2, 5] });
  });

  test('commit (§5.3): enter joins TX_y, leave publishes C_t to TX_y, one increment at the end', () => {
    const s = new ArrayClocks({ C0: [3, 0, 0], C1: [0, 2, 0], Ty: [0, 1, 0], Tz: [0, 0, 0] });
    rules.commitEnter(s, 'C0', 'Ty');
    rules.commitEnter(s, 'C0', 'Tz');
    rules.commitLeave(s, 'C0', 'Ty');
    rules.commitLeave(s, 'C0', 'Tz');
    rules.commitEnd(s, 'C0', 0);
    assert.deepEqual(s.snapshot(), { C0: [4, 1, 0], C1: [0, 2, 0], Ty: [3, 1, 0], Tz: [3, 1, 0] });
    // a later transaction of thread 1 on z only is ordered after thread 0's
    rules.commitEnter(s, 'C1', 'Tz');
    assert.deepEqual(s.get('C1'), [3, 2, 0]);
  });

  test('a message send is an atomic write and its receive an atomic read', () => {
    const s = before();
    rules.atomicWrite(s, 'C1', 1, 'X');
    rules.atomicRead(s, 'C0', 'X');
    assert.deepEqual(s.snapshot(), { C0: [4, 3, 0], C1: [0, 4, 0], X: [0, 3, 0] });
  });
});

describe('SyncClocks: the offline store of thread, lock, volatile and transaction clocks', () => {
  const tables = (): [ClockTable, ClockTable, ClockTable, ClockTable] => {
    const ts: [ClockTable, ClockTable, ClockTable, ClockTable] = [
      new ClockTable(4, 2),
      new ClockTable(4, 2),
      new ClockTable(4, 2),
      new ClockTable(4, 2),
    ];
    ts[SyncTable.Thread].data.set([5, 0, 0, 0, 0, 7, 0, 0]);
    ts[SyncTable.Lock].data.set([0, 0, 0, 0, 1, 9, 2, 0]);
    return ts;
  };
  const row = (tb: ClockTable, r: number) => [...tb.data.subarray(r * tb.width, (r + 1) * tb.width)];

  test('join, copy and tick address a row of the table named by the key', () => {
    const ts = tables();
    const s = new SyncClocks(ts);
    s.join(syncKey(SyncTable.Thread, 0), syncKey(SyncTable.Lock, 1));
    assert.deepEqual(row(ts[SyncTable.Thread], 0), [5, 9, 2, 0]);
    s.copy(syncKey(SyncTable.Volatile, 1), syncKey(SyncTable.Thread, 1));
    assert.deepEqual(row(ts[SyncTable.Volatile], 1), [0, 7, 0, 0]);
    s.tick(syncKey(SyncTable.Transaction, 1), 3);
    assert.deepEqual(row(ts[SyncTable.Transaction], 1), [0, 0, 0, 1]);
    assert.deepEqual(row(ts[SyncTable.Lock], 1), [1, 9, 2, 0], 'the source is left as it was');
  });

  test('release then acquire over the tables hands thread 0 over to thread 1', () => {
    const ts = tables();
    const s = new SyncClocks(ts);
    rules.release(s, syncKey(SyncTable.Thread, 0), 0, syncKey(SyncTable.Lock, 0));
    rules.acquire(s, syncKey(SyncTable.Thread, 1), syncKey(SyncTable.Lock, 0));
    assert.deepEqual(row(ts[SyncTable.Thread], 0), [6, 0, 0, 0]);
    assert.deepEqual(row(ts[SyncTable.Thread], 1), [5, 7, 0, 0]);
  });
});
