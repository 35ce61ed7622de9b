/**
 * The adversarial-memory core (src/jumble/: write buffers, the [READ] visible set, [GC1]/[GC2]/[REMOVE OLDEST], the
 * heuristics of §5.1 and tearing) on the paper's examples (Flanagan & Freund, PLDI'10: Figure 7, Figure 8), with the
 * project's vector-clock rules (src/detectors/vectorclock/rules.ts over SyncClocks) computing happens-before.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClockTable, SyncClocks, SyncTable, syncKey } from '../../src/detectors/vectorclock/clocks.js';
import * as rules from '../../src/detectors/vectorclock/rules.js';
import { DEFAULT_BOUND, NO_THREAD, WriteBuffer } from '../../src/jumble/buffer.js';
import { collect, gc1, type LiveThreads } from '../../src/jumble/gc.js';
import { Adversary, DEFAULT_FAIRNESS, HEURISTICS, type HeuristicName } from '../../src/jumble/heuristics.js';
import { distinct, visible } from '../../src/jumble/visible.js';

const { Thread, Lock } = SyncTable;

/** A small machine: thread and lock clocks (width 4) under the project's rules, and one write buffer `x`. */
class Machine {
  readonly C = new ClockTable(4, 4);
  readonly L = new ClockTable(4, 4);
  readonly clocks = new SyncClocks([this.C, this.L, new ClockTable(4, 1), new ClockTable(4, 1)]);
  readonly x = new WriteBuffer(0, 4);
  private seq = 0;

  constructor(threads: number) {
    for (let t = 0; t < threads; t++) this.C.data[t * 4 + t] = 1; // C_t = inc_t(⊥)
  }
  setClock(t: number, k: number[]): void {
    this.C.data.set(k.concat([0, 0, 0, 0]).slice(0, 4), t * 4);
  }
  clock(t: number): number[] {
    return [...this.C.data.subarray(t * 4, t * 4 + 2)];
  }
  acq(t: number, m: number): void {
    rules.acquire(this.clocks, syncKey(Thread, t), syncKey(Lock, m));
  }
  rel(t: number, m: number): void {
    rules.release(this.clocks, syncKey(Thread, t), t, syncKey(Lock, m));
  }
  fork(t: number, u: number): void {
    rules.fork(this.clocks, syncKey(Thread, t), t, syncKey(Thread, u));
  }
  wr(t: number, v: number, live?: LiveThreads, bound = DEFAULT_BOUND): void {
    this.x.append(v, t, this.C.data, t * 4, 4, this.seq++, -1);
    collect(this.x, live, bound);
  }
  /** The values visible to thread t, oldest first. */
  vis(t: number): number[] {
    const out = new Int32Array(64);
    const k = visible(this.x, this.C.data, t * 4, 4, out);
    return [...out.subarray(0, k)].map((i) => this.x.value[i]);
  }
  live(...threads: number[]): LiveThreads {
    return {
      data: this.C.data,
      width: 4,
      offsets: Int32Array.from(threads, (t) => t * 4),
      count: threads.length,
    };
  }
  /** The buffer as `value@⟨clock⟩` strings. */
  entries(): string[] {
    const b = this.x;
    return Array.from(
      { length: b.length },
      (_, i) =>
        `${b.value[i]}@${b.tid[i] === NO_THREAD ? '⊥' : `⟨${b.clock[i * b.width]},${b.clock[i * b.width + 1]}⟩`}`,
    );
  }
}

describe('Figure 7: the Operational PJMM on two threads, a lock m and a variable x', () => {
  test('the clocks, buffers and visible sets of each step, and the [GC1] result', () => {
    const m = new Machine(2);
    m.setClock(0, [4, 0]);
    m.setClock(1, [0, 7]);
    assert.deepEqual(m.entries(), ['0@⊥']);
    m.acq(0, 0);
    assert.deepEqual(
      [m.clock(0), m.clock(1)],
      [
        [4, 0],
        [0, 7],
      ],
    );
    m.wr(0, 13);
    m.wr(0, 42);
    assert.deepEqual(m.entries(), ['0@⊥', '13@⟨4,0⟩', '42@⟨4,0⟩']);
    m.rel(0, 0);
    assert.deepEqual(
      [m.clock(0), m.clock(1)],
      [
        [5, 0],
        [0, 7],
      ],
    );
    assert.deepEqual([...m.L.data.subarray(0, 2)], [4, 0]);
    assert.deepEqual(m.vis(1), [0, 13, 42], 'rd(1,x,v): an SC violation, every entry visible');
    m.acq(1, 0);
    assert.deepEqual(m.clock(1), [4, 7]);
    assert.deepEqual(m.vis(1), [42], 'rd(1,x,v′) after acq(1,m)');
    assert.deepEqual(m.vis(0), [42], 'the writer sees its last write only');
    const removed = gc1(m.x, m.live(0, 1));
    assert.equal(removed, 2);
    assert.deepEqual(m.entries(), ['42@⟨4,0⟩'], '[GC1] removes 0@⊥ and 13@⟨4,0⟩');
  });

  test('[GC1] keeps what a thread that may still act can read; quantifying over none keeps only the newest', () => {
    const m = new Machine(2);
    m.setClock(0, [4, 0]);
    m.setClock(1, [0, 7]);
    m.wr(0, 13);
    m.wr(0, 42);
    assert.equal(gc1(m.x, m.live(0, 1)), 0, 'thread 1 still sees every entry');
    assert.deepEqual(m.entries(), ['0@⊥', '13@⟨4,0⟩', '42@⟨4,0⟩']);
    assert.equal(gc1(m.x, m.live(0)), 2, 'thread 1 has finished: the writer sees 42 only');
  });
});

describe('[GC2] and its generalization (same writer, same epoch, equal value)', () => {
  test('a value written twice in a row by one thread is kept once (the later entry)', () => {
    const m = new Machine(2);
    m.wr(0, 5);
    m.wr(0, 5);
    assert.deepEqual(m.entries(), ['0@⊥', '5@⟨1,0⟩']);
    assert.equal(m.x.gc2Removed, 1);
    assert.equal(m.x.seq[1], 1, 'the later write stays');
  });

  test('an acquire between the writes (same epoch, a larger clock) still allows it', () => {
    const m = new Machine(2);
    m.rel(1, 0); // L_m = ⟨0,1⟩
    m.wr(0, 5);
    m.acq(0, 0); // C_0 = ⟨1,1⟩, same epoch 1@T0
    m.wr(0, 5);
    assert.deepEqual(m.entries(), ['0@⊥', '5@⟨1,1⟩']);
  });

  test('equal values of different epochs, or of unknown value, are both kept', () => {
    const m = new Machine(2);
    m.wr(0, 5);
    m.rel(0, 0);
    m.wr(0, 5);
    assert.deepEqual(m.entries(), ['0@⊥', '5@⟨1,0⟩', '5@⟨2,0⟩']);
    m.wr(0, Number.NaN);
    m.wr(0, Number.NaN);
    assert.equal(m.x.length, 5);
  });
});

describe('[REMOVE OLDEST]', () => {
  test('keeps the buffer within the bound and counts entries dropped while still visible', () => {
    const m = new Machine(2);
    for (let v = 1; v <= 5; v++) {
      m.wr(0, v, m.live(0, 1), 3);
      m.rel(0, 0);
    }
    // thread 1 never synchronized: every entry stays visible to it, so [GC1] removes nothing
    assert.equal(m.x.length, 3);
    assert.deepEqual(m.vis(1), [3, 4, 5]);
    assert.equal(m.x.oldestRemoved, 3);
    assert.equal(m.x.droppedVisible, 3);
    assert.equal(m.x.maxUncompressed, 5);
  });

  test('drops of entries no thread can read are not counted', () => {
    const m = new Machine(2);
    for (let v = 1; v <= 5; v++) m.wr(0, v, m.live(0), 2);
    // the writer alone: once over the bound, [GC1] keeps only the newest, so [REMOVE OLDEST] never runs
    assert.deepEqual(m.vis(0), [5]);
    assert.ok(m.x.length <= 2);
    assert.equal(m.x.oldestRemoved, 0);
    assert.equal(m.x.droppedVisible, 0);
  });
});

describe('a thread forked after a write does not lose it through [GC1]', () => {
  test('the forked thread inherits its forker clock, which still sees the write', () => {
    const m = new Machine(3);
    m.wr(1, 7); // T1 writes 7 (unordered with T0)
    m.wr(0, 9); // T0 writes 9
    gc1(m.x, m.live(0, 1)); // T2 is not started (forked later by T0): left out of [GC1]
    assert.equal(m.x.gc1Removed, 1, '0@⊥ is hidden from T0 (by 9) and from T1 (by 7)');
    m.fork(0, 2);
    assert.deepEqual(m.vis(2), [7, 9], 'T2 sees both writes, as the literal rule says (0@⊥ hidden by 9)');
  });
});

/**
 * Figure 8: Thread 1 `x = new Circle()` (value 1), Thread 2 `for (i = 0; i < 10; i++) if (x != null) x.draw();`
 * (value 0 = null), unsynchronized; the write comes before the loop. @returns whether `x.draw()` read null.
 */
function figure8(heuristic: HeuristicName, seed: number, fairness = DEFAULT_FAIRNESS): boolean {
  const m = new Machine(2);
  m.wr(0, 1);
  const adv = new Adversary({ heuristic, seed, fairness });
  const read = () => m.x.value[adv.read(m.x, 1, m.C.data, 4, 4)];
  for (let i = 0; i < 10; i++) {
    if (read() !== 0 && read() === 0) return true; // x.draw() on null
  }
  return false;
}

describe('Figure 8 under each heuristic (§5.1)', () => {
  const rate = (h: HeuristicName) => {
    let fails = 0;
    for (let seed = 0; seed < 100; seed++) if (figure8(h, seed)) fails++;
    return fails;
  };

  test('SC never fails (always the newest value)', () => assert.equal(rate('sc'), 0));
  test('Oldest never fails: it returns null for all 10 checks (fewer than K = 16 stale reads)', () =>
    assert.equal(rate('oldest'), 0));
  test('Oldest-But-Different fails on every run: null, then non-null, then null at draw()', () => {
    assert.equal(rate('obd'), 100);
  });
  test('Random fails on some seeds, not all', () => {
    const r = rate('random');
    assert.ok(r > 20 && r < 100, `${r}%`);
  });
  test('Random-But-Different fails on every run: with two values it must alternate', () =>
    assert.equal(rate('rbd'), 100));
  test('a seed determines the run', () => {
    for (const h of HEURISTICS) for (let s = 0; s < 20; s++) assert.equal(figure8(h, s), figure8(h, s));
  });

  test('the choices of Oldest-But-Different, read by read', () => {
    const m = new Machine(2);
    m.wr(0, 1);
    const adv = new Adversary({ heuristic: 'obd' });
    const got = Array.from({ length: 5 }, () => m.x.value[adv.read(m.x, 1, m.C.data, 4, 4)]);
    assert.deepEqual(got, [0, 1, 0, 1, 0]);
    assert.equal(adv.distinct, 2);
  });
});

describe('fairness: the newest value after K consecutive stale reads', () => {
  test('Oldest returns null K times, then the newest value once, then null again', () => {
    const m = new Machine(2);
    m.wr(0, 1);
    const adv = new Adversary({ heuristic: 'oldest', fairness: 3 });
    const got = Array.from({ length: 8 }, () => m.x.value[adv.read(m.x, 1, m.C.data, 4, 4)]);
    assert.deepEqual(got, [0, 0, 0, 1, 0, 0, 0, 1]);
  });

  test('fairness off (Infinity): Oldest spins on the stale value', () => {
    const m = new Machine(2);
    m.wr(0, 1);
    const adv = new Adversary({ heuristic: 'oldest', fairness: Number.POSITIVE_INFINITY });
    for (let i = 0; i < 100; i++) assert.equal(m.x.value[adv.read(m.x, 1, m.C.data, 4, 4)], 0);
  });

  test('stale counts are per thread', () => {
    const m = new Machine(3);
    m.wr(0, 1);
    const adv = new Adversary({ heuristic: 'oldest', fairness: 2 });
    const r = (t: number) => m.x.value[adv.read(m.x, t, m.C.data, t * 4, 4)];
    assert.deepEqual([r(1), r(1), r(2), r(1), r(2)], [0, 0, 0, 1, 0]);
  });
});

describe('no choice: a single distinct visible value', () => {
  test('equal values from two writers give |D| = 1 and the newest entry', () => {
    const m = new Machine(3);
    m.wr(0, 5);
    m.wr(1, 5);
    m.rel(0, 0);
    m.rel(1, 1);
    m.acq(2, 0);
    m.acq(2, 1);
    const adv = new Adversary({ heuristic: 'oldest' });
    assert.equal(adv.read(m.x, 2, m.C.data, 8, 4), 2);
    assert.equal(adv.distinct, 1);
    assert.equal(adv.stale, false);
  });
});

describe('tearing of 8-byte values (§5.2): halves of two distinct visible writes', () => {
  test('every torn read combines two different visible entries, halves alternating', () => {
    for (const h of ['oldest', 'obd', 'random', 'rbd'] as const) {
      const m = new Machine(2);
      m.wr(0, 1);
      m.wr(0, 1); // [GC2]
      m.rel(0, 0);
      m.wr(0, 2);
      m.x.tearable = true;
      const adv = new Adversary({ heuristic: h, seed: 7 });
      const halves: boolean[] = [];
      const out = new Int32Array(8);
      const k = visible(m.x, m.C.data, 4, 4, out);
      const legal = new Set(out.subarray(0, k));
      for (let i = 0; i < 6; i++) {
        adv.read(m.x, 1, m.C.data, 4, 4);
        assert.ok(adv.torn, h);
        assert.ok(legal.has(adv.entry) && legal.has(adv.second), h);
        assert.notEqual(m.x.value[adv.entry], m.x.value[adv.second], h);
        halves.push(adv.highFromEntry);
        assert.ok(Number.isNaN(m.x.last), 'last records a torn value');
      }
      for (let i = 1; i < halves.length; i++) assert.notEqual(halves[i], halves[i - 1], `${h} alternates`);
    }
  });

  test('no tearing under SC, without a choice, or on a location that may not tear', () => {
    const m = new Machine(2);
    m.wr(0, 1);
    m.x.tearable = true;
    const sc = new Adversary({ heuristic: 'sc' });
    sc.read(m.x, 1, m.C.data, 4, 4);
    assert.equal(sc.torn, false);
    const old = new Adversary({ heuristic: 'oldest' });
    old.read(m.x, 0, m.C.data, 0, 4); // the writer sees its write only
    assert.equal(old.torn, false);
    m.x.tearable = false;
    old.read(m.x, 1, m.C.data, 4, 4);
    assert.equal(old.torn, false);
    assert.equal(old.stale, true, 'a choice, not torn');
  });
});

describe('distinct values', () => {
  test('ordered by oldest occurrence, each with its newest visible entry; unknown values each distinct', () => {
    const b = new WriteBuffer(0, 2);
    const C = Int32Array.of(1, 0, 0, 1);
    for (const [v, t] of [
      [5, 0],
      [7, 1],
      [5, 1],
      [Number.NaN, 0],
      [Number.NaN, 1],
    ])
      b.append(v, t, C, t * 2, 2, 0, -1);
    const vis = Int32Array.of(0, 1, 2, 3, 4, 5);
    const out = new Int32Array(6);
    const d = distinct(b, vis, 6, out);
    assert.deepEqual([...out.subarray(0, d)], [0, 3, 2, 4, 5]);
  });
});
