import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verdicts } from '../../src/check.js';
import { checkText } from '../../src/check-text.js';

/** Runs eager and goldilocks; asserts they agree and returns eager's verdicts and statistics. */
function eager(lines: string[]): { racy: Map<string, number>; stats: Record<string, number> } {
  const r = checkText(`${lines.join('\n')}\n`, { detectors: ['eager', 'goldilocks'] });
  const racy = verdicts(r, 0);
  assert.deepEqual(verdicts(r, 1), racy, 'goldilocks disagrees with eager');
  return { racy, stats: r.results[0].detector.stats() };
}

// The eager oracle keeps one hash-consed lockset class per distinct lockset content (src/detectors/eager/eager.ts).
describe('eager: lockset classes (Figure 5 applied once per distinct lockset)', () => {
  it('a synchronization event updates each class once, however many accesses share it', () => {
    const writes = Array.from({ length: 1000 }, (_, i) => `T0|w(x${i})|`);
    const { racy, stats } = eager(['T0|fork(T1)|', ...writes, 'T0|vw(f)|', 'T1|vr(f)|', 'T1|r(x7)|']);
    assert.deepEqual([...racy], []);
    // vw and vr each visit the one class {T0} (then {T0, f}) of the 1000 writes
    assert.equal(stats.lockUpdates, 2);
    assert.equal(stats.classesLive, 2); // the writes' {T0, f, T1} and the read's {T1}
  });

  it('a class merged into an equal one keeps receiving the rules through it, with its references', () => {
    const { racy, stats } = eager([
      'T0|fork(T1)|',
      'T0|w(x)|', // x: {T0}
      'T0|acq(l)|',
      'T0|rel(l)|', // x: {T0, l}
      'T0|acq(l)|',
      'T0|w(y)|', // y: a new {T0}
      'T0|rel(l)|', // y: {T0, l}, merged into x's class
      'T0|w(x)|', // x's first write dropped: the merged class still has y's write
      'T1|acq(l)|', // y: {T0, l, T1} only if y's write still reaches the merged class
      'T1|r(y)|',
      'T1|rel(l)|',
      'T1|r(x)|', // x's second write: {T0}
      'T1|w(y)|', // drops y's write and T1's read of y: their classes go
    ]);
    assert.deepEqual([...racy], [['x', 11]]);
    assert.equal(stats.classMerges, 1);
    // left: x's second write {T0}, T1's read of x {T1}, y's last write {T1} (the same class)
    assert.equal(stats.classesLive, 2);
  });

  it('an atomic write that removes a volatile merges classes that become equal', () => {
    const { racy, stats } = eager([
      'T0|fork(T1)|',
      'T0|w(x)|', // x: {T0}
      'T0|aw(f)|', // x: {T0, f}
      'T0|w(y)|', // y: {T0}
      'T1|aw(f)|', // x: {T0} (f replaced by T1's write), merged into y's class
      'T0|vw(g)|', // x, y: {T0, g}
      'T1|vr(g)|', // x, y: {T0, g, T1}
      'T1|r(x)|',
      'T1|r(y)|',
    ]);
    assert.deepEqual([...racy], []);
    assert.equal(stats.classMerges, 1);
  });
});
