import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verdicts } from '../../src/check.js';
import { checkText } from '../../src/check-text.js';

const PRECISE = ['goldilocks', 'eager', 'djit', 'fasttrack'];

/** Runs every precise detector; asserts they agree and returns the verdicts (variable → first racy event). */
function check(lines: string[]): Map<string, number> {
  const r = checkText(`${lines.join('\n')}\n`, { detectors: PRECISE });
  const first = verdicts(r, 0);
  for (let i = 1; i < PRECISE.length; i++) assert.deepEqual(verdicts(r, i), first, PRECISE[i]);
  return first;
}

// ECMA-262 "Memory Model": a seq-cst write synchronizes-with the seq-cst reads that read from it; in a trace,
// an atomic read reads from the last atomic write of the location (ar/aw/armw), where a Java volatile read
// is ordered after every earlier volatile write (vr/vw).
describe('ECMA-262 atomics (ar, aw, armw)', () => {
  it('an atomic read synchronizes only with the last atomic write', () => {
    const racy = check(['T1|w(x)|', 'T1|aw(f)|', 'T2|aw(f)|', 'T3|ar(f)|', 'T3|r(x)|']);
    assert.deepEqual([...racy], [['x', 4]]);
    // the same with Java volatiles: the first write is ordered before the read too
    assert.deepEqual([...check(['T1|w(x)|', 'T1|vw(f)|', 'T2|vw(f)|', 'T3|vr(f)|', 'T3|r(x)|'])], []);
  });

  it('reading from the last write orders everything before it', () => {
    assert.deepEqual([...check(['T1|w(x)|', 'T2|aw(f)|', 'T1|aw(f)|', 'T3|ar(f)|', 'T3|r(x)|'])], []);
  });

  it('read-modify-writes chain: each reads from the previous write', () => {
    assert.deepEqual([...check(['T1|w(x)|', 'T1|aw(f)|', 'T2|armw(f)|', 'T3|ar(f)|', 'T3|r(x)|'])], []);
    // a plain atomic write in between breaks the chain
    const racy = check(['T1|w(x)|', 'T1|aw(f)|', 'T2|aw(f)|', 'T2|armw(f)|', 'T3|ar(f)|', 'T3|r(x)|']);
    assert.deepEqual([...racy], [['x', 5]]);
  });

  it('a write by a thread already ordered after the access keeps the edge', () => {
    // T2 read from T1 (so T1's write happens-before T2's later events); T2's own atomic write then carries it
    assert.deepEqual(
      [...check(['T1|w(x)|', 'T1|aw(f)|', 'T2|ar(f)|', 'T2|aw(f)|', 'T3|ar(f)|', 'T3|r(x)|'])],
      [],
    );
  });

  it('every optimization of goldilocks gives the same verdicts (walk cache, memo, partially-eager)', () => {
    const text = `${['T1|w(x)|', 'T1|aw(f)|', 'T2|aw(f)|', 'T3|ar(f)|', 'T3|r(x)|', 'T1|aw(f)|', 'T3|ar(f)|', 'T3|w(x)|'].join('\n')}\n`;
    for (const goldilocks of [
      { walkCacheMinCells: 1 },
      { eagerBound: 1 },
      { hbMemo: false },
      { directTransfer: false },
    ]) {
      const r = checkText(text, { detectors: ['goldilocks', 'eager'], detectorOptions: { goldilocks } });
      assert.deepEqual(verdicts(r, 0), verdicts(r, 1), JSON.stringify(goldilocks));
    }
  });
});

// The data accesses of atomic operations (ard/awd): checked like reads/writes, except that two accesses of the same
// atomic location (equal ranges) never race (ECMA-262 "Memory Model", data races); an atomic write replaces the
// earlier accesses like any write (what `goldilocks run` does live: docs/RUNTIME.md).
describe('data accesses of atomic operations (ard, awd)', () => {
  it('two atomic accesses of one location never race; of different locations (mixed-size) they do', () => {
    assert.deepEqual([...check(['T1|awd(x,a)|', 'T2|awd(x,a)|', 'T3|ard(x,a)|'])], []);
    assert.deepEqual([...check(['T1|awd(x,a)|', 'T2|ard(x,b)|'])], [['x', 1]]);
    assert.deepEqual([...check(['T1|ard(x,a)|', 'T2|awd(x,b)|'])], [['x', 1]]);
  });

  it('an atomic and a plain access unordered by happens-before race, either way round', () => {
    assert.deepEqual([...check(['T1|awd(x,a)|', 'T2|r(x)|'])], [['x', 1]]);
    assert.deepEqual([...check(['T1|w(x)|', 'T2|ard(x,a)|'])], [['x', 1]]);
    assert.deepEqual([...check(['T1|ard(x,a)|', 'T2|w(x)|'])], [['x', 1]]);
    // two reads never race
    assert.deepEqual([...check(['T1|ard(x,a)|', 'T2|r(x)|'])], []);
  });

  it('a store read by a load publishes the plain accesses before it', () => {
    const lines = [
      'T1|w(y)|',
      'T1|awd(x,a)|',
      'T1|aw(a)|',
      'T2|ar(a)|',
      'T2|ard(x,a)|',
      'T2|r(y)|',
      'T2|w(x)|',
    ];
    assert.deepEqual([...check(lines)], []);
    // without the load's synchronization the plain read of y races
    assert.deepEqual(
      [...check(lines.filter((l) => l !== 'T2|ar(a)|'))],
      [
        ['y', 4],
        ['x', 5],
      ],
    );
  });

  it('an atomic write replaces the write before it: a later atomic access of its location is checked against it only', () => {
    // T3's load reads from T2's store (ordered after T1's plain write through f); T1's write is not compared
    assert.deepEqual([...check(['T1|w(x)|', 'T1|vw(f)|', 'T2|vr(f)|', 'T2|awd(x,a)|', 'T3|ard(x,a)|'])], []);
    // ... and the reads before it, which T2 is ordered after
    assert.deepEqual([...check(['T1|r(x)|', 'T1|vw(f)|', 'T2|vr(f)|', 'T2|awd(x,a)|', 'T3|awd(x,a)|'])], []);
  });

  it("an atomic read does not hide another thread's plain read from a later atomic write", () => {
    // T2's atomic read follows T1's plain read; T3's atomic write is ordered after neither: it races with T1's read
    assert.deepEqual(
      [...check(['T1|r(x)|', 'T1|vw(f)|', 'T2|vr(f)|', 'T2|ard(x,a)|', 'T3|awd(x,a)|'])],
      [['x', 4]],
    );
    // nor the same thread's: a load orders nothing before a later store, so T1's plain read still races with it
    assert.deepEqual([...check(['T1|r(x)|', 'T1|ard(x,a)|', 'T3|awd(x,a)|'])], [['x', 2]]);
    assert.deepEqual([...check(['T1|ard(x,b)|', 'T1|ard(x,a)|', 'T3|awd(x,a)|'])], [['x', 2]]);
    // ... while a later plain read does stand for the earlier ones, and a load of the store's location races with none
    assert.deepEqual(
      [...check(['T1|r(x)|', 'T1|ard(x,a)|', 'T1|r(x)|', 'T1|vw(f)|', 'T3|vr(f)|', 'T3|awd(x,a)|'])],
      [],
    );
    assert.deepEqual([...check(['T1|ard(x,a)|', 'T1|ard(x,a)|', 'T3|awd(x,a)|'])], []);
  });

  it("a thread's read that stood for another thread's keeps it when the thread then reads atomically", () => {
    // found by the differential test (FastTrack's read epoch of T1 stood for T0's read, then T1's atomic read
    // replaced the epoch and T2's write of the same location skipped it): T2's write races with both plain reads
    const trace = [
      'T0|fork(T1)|',
      'T0|acq(l1)|',
      'T0|r(o1.f)|',
      'T0|rel(l1)|',
      'T1|acq(l1)|',
      'T1|r(o1.f)|',
      'T1|rel(l1)|',
      'T1|ard(o1.f,v1)|',
      'T1|ar(v1)|',
      'T2|awd(o1.f,v1)|',
      'T2|aw(v1)|',
    ];
    assert.deepEqual([...check(trace)], [['o1.f', 9]]);
    // in read-shared state (T3's read is concurrent with T1's), and with T2 ordered after T0 but not T1
    const shared = ['T3|r(o1.f)|', ...trace.slice(0, 9), 'T0|vw(g)|', 'T2|vr(g)|', ...trace.slice(9)];
    assert.deepEqual([...check(shared)], [['o1.f', 12]]);
  });

  it("an atomic write in the same epoch as the same thread's last write still replaces the reads since", () => {
    // found by npm run fuzz (seed 424285): DJIT+ and FastTrack skipped T0's second write as same-epoch, keeping
    // T0's plain read, which T1's write of the same location then raced with; the second write replaces it
    assert.deepEqual(
      [...check(['T0|awd(x,a)|', 'T0|r(x)|', 'T0|awd(x,a)|', 'T0|aw(a)|', 'T1|awd(x,a)|', 'T1|aw(a)|'])],
      [],
    );
    // ... and a plain write after a same-epoch atomic one is the last write, which a load of that location checks
    assert.deepEqual([...check(['T0|awd(x,a)|', 'T0|w(x)|', 'T1|ard(x,a)|'])], [['x', 2]]);
  });

  it('same-epoch accesses of another kind are still checked', () => {
    // T1's plain then atomic write in one epoch: the atomic one is the last write, exempt for T2's load
    assert.deepEqual([...check(['T1|w(x)|', 'T1|awd(x,a)|', 'T2|ard(x,a)|'])], []);
    assert.deepEqual([...check(['T1|awd(x,a)|', 'T1|w(x)|', 'T2|ard(x,a)|'])], [['x', 2]]);
    assert.deepEqual([...check(['T1|ard(x,a)|', 'T1|r(x)|', 'T2|awd(x,a)|'])], [['x', 2]]);
  });

  it('eraser: two atomic accesses of one location hold its pseudo-lock; a plain access does not', () => {
    const eraser = (lines: string[]) =>
      verdicts(checkText(`${lines.join('\n')}\n`, { detectors: ['eraser'] })).size;
    assert.equal(eraser(['T1|awd(x,a)|', 'T2|awd(x,a)|', 'T1|ard(x,a)|']), 0);
    assert.equal(eraser(['T1|awd(x,a)|', 'T2|awd(x,a)|', 'T1|w(x)|']), 1);
    assert.equal(eraser(['T1|awd(x,a)|', 'T2|awd(x,b)|', 'T1|awd(x,a)|']), 1);
  });
});

describe('goldilocks: a thread reading its own variable after an atomic read of it', () => {
  it('keeps one read Info of the thread, so a write frees it and the list is collected', () => {
    // T0 alone accesses x: a plain read, an atomic one (a second read Info of T0), a plain read (which supersedes
    // both), a write (which drops T0's reads); T1's write is ordered by the lock. Taking the plain read for an access of
    // the only thread with one read Info (the owner's own path) renewed one Info and left the other holding its cell.
    const r = checkText(
      `${['T0|r(x)|1', 'T0|ard(x,v)|2', 'T0|r(x)|3', 'T0|w(x)|4', 'T0|acq(l)|5', 'T0|rel(l)|6', 'T1|acq(l)|7', 'T1|w(x)|8', 'T1|rel(l)|9'].join('\n')}\n`,
      { detectors: ['goldilocks'] },
    );
    assert.deepEqual([...verdicts(r)], []);
    const stats = r.results[0].detector.stats();
    // the cells before T0's write are referenced by no Info then: collected (T1's write Info holds the last one)
    assert.equal(stats.listLength, 1);
    assert.equal(stats.cellsCollected, 3);
  });
});
