import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkText, verdicts } from '../src/check.js';

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
