/**
 * Patterned pages (`src/live/shadow/pages.ts` `Pages.pattern`, issue 24 §1 memory): a page whose 8 words'
 * lists differ only in their last Info's position (lufact's upper triangle: each element last written in another
 * step) keeps one list and a position per word, and stays exact: each word's race verdict is the one its own list
 * gives, per access, in a range check, and after the partially-eager collector rewrote the page.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appendCell, EAGER_MIN, ensureThread, STAT, Tag } from '../../src/live/memory/state.js';
import { shadowCensus } from '../../src/live/shadow/census.js';
import { collectList } from '../../src/live/shadow/eager.js';
import { Access, Info, packA, Shadow } from '../../src/live/shadow/goldilocks.js';
import { headOf, lockOf, MARK, PAGE_INTS, UNIFORM } from '../../src/live/shadow/table.js';
import { SyncKind } from '../../src/model/sync.js';
import { twoThreads } from '../helpers/two-threads.js';

/** The lock thread 1 releases after writing word `w`. */
const lockAfter = (w: number): number => packA(Tag.Named, 10 + w);

/**
 * Thread 1 writes the words of page 0 one at a time, releasing lock {@link lockAfter}(w) after word w (so each word
 * is last written at another position); then thread 2 acquires the lock released after word `ordered`.
 */
function writeApart(ordered: number) {
  const t = twoThreads();
  const { s, base, one, two } = t;
  for (let w = 0; w < 8; w++) {
    assert.equal(one.access(base + w, Access.MASK, Access.WRITE, 7, true), undefined);
    one.pos = appendCell(s, SyncKind.Release, 1, lockAfter(w), 0) + 1;
  }
  two.pos = appendCell(s, SyncKind.Acquire, 2, lockAfter(ordered), 0) + 1;
  return t;
}

/** The `pos` of each of the words' last Info of the page whose first word is `base` (the page split). */
function lastPositions(heap: Int32Array, base: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < 8; k++) {
    let e = heap[headOf(heap, base + k)];
    while (heap[e + Info.NEXT] !== 0) e = heap[e + Info.NEXT];
    out.push(heap[e + Info.POS]);
  }
  return out;
}

describe('patterned pages', () => {
  test('words last written at different positions keep one list and a position each', () => {
    const { s, base } = writeApart(3);
    assert.ok(s.heap[lockOf(base) + MARK] < UNIFORM, 'patterned');
    const c = shadowCensus(s);
    assert.equal(c.patternPages, 1);
    assert.equal(c.infoBytes, Info.SIZE * 4, 'one Info for the 8 words');
    assert.equal(c.splitInfoBytes, 0);
  });

  test('each word races as its own list says: per access', () => {
    for (let w = 0; w < 8; w++) {
      const { base, two } = writeApart(3); // thread 2 is ordered after the writes of words 0-3 only
      const c = two.access(base + w, Access.MASK, 0, 8, true);
      if (w <= 3) assert.equal(c, undefined, `word ${w}: ordered`);
      else assert.equal(c?.owner, 1, `word ${w}: races with thread 1's write`);
    }
  });

  test('and in a range check, which records nothing when one word races', () => {
    const late = writeApart(7);
    assert.ok(late.two.accessRuns([late.base, 8, 0, 8, Access.MASK, 1], Int32Array.of(lockOf(late.base)), 1));
    const early = writeApart(6);
    assert.equal(
      early.two.accessRuns([early.base, 8, 0, 8, Access.MASK, 1], Int32Array.of(lockOf(early.base)), 1),
      false,
    );
    assert.equal(early.two.access(early.base + 7, Access.MASK, 0, 9, true)?.owner, 1);
  });

  test('a split gives each word its own position back', () => {
    const { s, base, one } = writeApart(3);
    one.splitPage(lockOf(base));
    assert.ok(s.heap[lockOf(base) + MARK] >= UNIFORM, 'not patterned');
    // word w written after the release cells of words 0 .. w-1, at positions 0 .. w-1
    assert.deepEqual(lastPositions(s.heap, base), [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  test('pages with equal positions share one positions record; a split drops its reference, the verdicts stay', () => {
    const t = twoThreads();
    const { s, base, one, two } = t;
    for (let w = 0; w < 8; w++) {
      for (let p = 0; p < 3; p++) one.access(base + 8 * p + w, Access.MASK, Access.WRITE, 7, true);
      one.pos = appendCell(s, SyncKind.Release, 1, lockAfter(w), 0) + 1;
    }
    two.pos = appendCell(s, SyncKind.Acquire, 2, lockAfter(3), 0) + 1;
    const marks = [0, 1, 2].map((p) => s.heap[lockOf(base) + p * PAGE_INTS + MARK]);
    assert.ok(marks[0] < UNIFORM, 'patterned');
    assert.deepEqual(marks, [marks[0], marks[0], marks[0]], 'one positions record');
    const r = -marks[0];
    assert.equal(s.heap[r], 4, 'three pages and the candidate');
    assert.equal(shadowCensus(s).tableBytes, 4 * 16 + Info.SIZE * 4, 'the record counted once');
    assert.equal(two.access(base + 8 + 6, Access.MASK, 0, 8, true)?.owner, 1, 'page 1, word 6: races');
    assert.equal(s.heap[r], 3, 'page 1, split, dropped its reference');
    assert.deepEqual(lastPositions(s.heap, base + 8), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.equal(two.access(base + 16 + 2, Access.MASK, 0, 9, true), undefined, 'page 2, word 2: ordered');
    assert.equal(two.access(base + 5, Access.MASK, 0, 10, true)?.owner, 1, 'page 0, word 5: races');
  });

  test('the partially-eager collector rewrites a patterned page; the race verdicts stay', () => {
    const { s, base, one, two } = writeApart(3);
    ensureThread(s, 3);
    const three = new Shadow(s, 3);
    for (let i = 0; i < 2 * EAGER_MIN; i++) appendCell(s, SyncKind.Release, 3, packA(Tag.Named, 2), 0);
    two.pos = appendCell(s, SyncKind.Acquire, 2, lockAfter(3), 0) + 1;
    three.pos = two.pos;
    collectList(s, one);
    assert.equal(one.counts[STAT.eagerRuns], 1, 'collected');
    assert.equal(two.access(base + 2, Access.MASK, 0, 50, true), undefined, 'word 2: ordered');
    assert.equal(two.access(base + 6, Access.MASK, 0, 51, true)?.owner, 1, 'word 6: races');
    assert.equal(three.access(base + 1, Access.MASK, 0, 52, true)?.owner, 1, 'word 1: races');
  });
});
