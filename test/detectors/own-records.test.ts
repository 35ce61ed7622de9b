/**
 * Goldilocks' own records (src/detectors/goldilocks/goldilocks.ts, `own`): the accesses of a variable that one thread
 * alone has accessed are kept as 8 numbers, not Infos, and become Infos at its first access by another thread. Verdicts
 * are covered by the differential tests (test/detectors/differential.test.ts); these pin down what verdicts do not
 * show: the read a write drops, the list references the records hold, and the accesses a race report names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verdicts } from '../../src/check.js';
import { checkText } from '../../src/check-text.js';
import type { GoldilocksOptions } from '../../src/detectors/goldilocks/goldilocks.js';

function check(lines: string[], goldilocks: GoldilocksOptions = {}) {
  const r = checkText(`${lines.join('\n')}\n`, {
    detectors: ['goldilocks'],
    detectorOptions: { goldilocks },
  });
  // each race as its current event and the previous access it names, with its location's name
  const races = [...r.results[0].races.groups.values()].map(({ race }) => ({
    current: race.current.index,
    previous: { ...race.previous, loc: r.symbols.locations.name(race.previous.loc) },
  }));
  return { racy: [...verdicts(r)], races, stats: r.results[0].detector.stats() };
}

describe('goldilocks: accesses of a variable of one thread in its own record', () => {
  it('a write drops the read before it and its cell reference; the next thread checks the write only', () => {
    const { racy, stats } = check([
      'T0|r(x)|1', // x's read at position 0
      'T0|acq(l)|2', // cell 0
      'T0|rel(l)|3', // cell 1
      'T0|w(x)|4', // at position 2: the read (one owner check) and its reference at cell 0 dropped
      'T0|acq(l)|5', // cell 2: cells 0 and 1 collected
      'T0|rel(l)|6', // cell 3
      'T1|acq(l)|7', // cell 4
      'T1|w(x)|8', // T0's write becomes an Info: one check (direct transfer over cells 2-4), no read to check
      'T1|rel(l)|9', // cell 5: cells 2-4 collected (T1's write holds position 5)
    ]);
    assert.deepEqual(racy, []);
    assert.equal(stats.checks, 2);
    assert.equal(stats.shortCircuitOwner, 1);
    assert.equal(stats.directTransfer, 1);
    assert.equal(stats.cellsCollected, 5);
    assert.equal(stats.listLength, 1);
  });

  it("a race names the owner's last accesses, from the record: the write, and the read since", () => {
    const { races } = check([
      'T0|w(x)|10',
      'T0|r(x)|11',
      'T0|w(y)|12',
      'T0|r(y)|13',
      'T0|r(y)|14',
      'T1|r(x)|20',
      'T1|w(y)|21',
    ]);
    assert.deepEqual(races, [
      { current: 5, previous: { index: 0, thread: 0, write: true, xact: false, atomic: false, loc: '10' } }, // T1's read of x: T0's write
      { current: 6, previous: { index: 2, thread: 0, write: true, xact: false, atomic: false, loc: '12' } }, // T1's write of y: T0's write first
    ]);
  });

  it('a read since the write is checked by another thread once the write happens-before it', () => {
    const { races } = check([
      'T0|w(x)|10',
      'T0|acq(l)|11',
      'T0|rel(l)|12',
      'T1|acq(l)|13', // T0's write happens-before T1
      'T0|r(x)|14', // T0's read since its write: after T1's acquire, not ordered before T1's write
      'T1|w(x)|15',
    ]);
    assert.deepEqual(
      races.map((r) => [r.current, r.previous.index, r.previous.write, r.previous.loc]),
      [[5, 4, false, '14']], // the read, not the write
    );
  });

  it('rule 8: alloc drops the record and its cell references', () => {
    const { racy, stats } = check([
      'T0|r(o.f)|1', // position 0
      'T0|w(o.g)|2', // position 0
      'T0|acq(l)|3', // cell 0
      'T0|alloc(o)|4', // both accesses dropped
      'T0|rel(l)|5', // cell 1: cells 0 and 1 unreferenced, collected from here
      'T1|w(o.f)|6',
      'T1|r(o.g)|7',
    ]);
    assert.deepEqual(racy, []);
    assert.equal(stats.checks, 0);
    assert.equal(stats.cellsCollected, 2);
  });

  it('partially-eager evaluation (§5.4) takes the records with an access before its stretch: the list is collected', () => {
    const sync = Array.from({ length: 12 }, (_, i) => `T1|${i % 2 === 0 ? 'acq' : 'rel'}(l)|${i}`);
    const { racy, stats } = check(
      ['T0|w(x)|1', 'T0|r(y)|2', ...sync, 'T0|acq(l)|3', 'T0|rel(l)|4', 'T1|r(x)|5'],
      {
        eagerBound: 4,
      },
    );
    assert.deepEqual(racy, [['x', 16]]); // T1's read of x after T0's write: no happens-before
    // 14 cells; from the 5th on, each makes the list longer than 4: an evaluation of its first cell (10 in all), which
    // moves x's write and y's read (at the head until then) past it, and collects it
    assert.equal(stats.eagerRuns, 10);
    assert.equal(stats.eagerInfos, 20);
    assert.equal(stats.cellsCollected, 10);
    assert.equal(stats.listLength, 4);
  });
});
