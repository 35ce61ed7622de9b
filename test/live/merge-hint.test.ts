/**
 * The merge of a split page (`src/live/shadow/pages.ts` `Pages.merge`, issue 24 §1 memory and moldyn's speed): one
 * pass over the 8 words' lists for its three forms (equal lists: uniform; equal but for sites: site vectors; equal but
 * for the last Infos' `pos`: patterned), starting at the word that stopped the page's last attempt (kept in its heads
 * record's word 0). Whatever the order of the words' accesses, the page takes the form its lists allow, when they
 * allow it, and its words keep their own sites.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appendCell, type StateViews, Tag } from '../../src/live/memory/state.js';
import { shadowCensus } from '../../src/live/shadow/census.js';
import { Access, Info, packA, type Shadow, siteAt } from '../../src/live/shadow/goldilocks.js';
import { lockOf, MARK, UNIFORM } from '../../src/live/shadow/table.js';
import { SyncKind } from '../../src/model/sync.js';
import { twoThreads } from '../helpers/two-threads.js';

/** Thread 1's site for word `k`: three in turn, as moldyn's `acc[base + 3*j + d]`. */
const siteOne = (k: number): number => 20 + (k % 3);

const mark = (s: StateViews, base: number): number => s.heap[lockOf(base) + MARK];

/** A pseudo-random permutation of the words 0–7 (a linear congruential generator from `seed`). */
function permutation(seed: number): number[] {
  const words = [0, 1, 2, 3, 4, 5, 6, 7];
  let x = seed;
  for (let i = 7; i > 0; i--) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const j = x % (i + 1);
    [words[i], words[j]] = [words[j], words[i]];
  }
  return words;
}

/**
 * Thread 2 writes the page whole (one uniform list) and releases a lock that thread 1 then acquires; thread 1 writes
 * the page's words in the order `order` (moldyn's phases: another owner's history, then this thread's epoch).
 */
function rewrite(order: number[]): { s: StateViews; base: number; one: Shadow; uniformAfter: boolean[] } {
  const { s, base, one, two } = twoThreads(false);
  two.accessRun(base, 8, Access.MASK, Access.MASK, Access.WRITE, 30, true);
  assert.equal(mark(s, base), UNIFORM);
  const lock = packA(Tag.Named, 9);
  two.pos = appendCell(s, SyncKind.Release, 2, lock, 0) + 1;
  one.pos = appendCell(s, SyncKind.Acquire, 1, lock, 0) + 1;
  const uniformAfter: boolean[] = [];
  for (const k of order) {
    assert.equal(one.access(base + k, Access.MASK, Access.WRITE, siteOne(k), true), undefined);
    uniformAfter.push(mark(s, base) === UNIFORM);
  }
  return { s, base, one, uniformAfter };
}

describe('merge of a split page', () => {
  test('a page written again in any order merges at its last word, not before, each word keeping its site', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const order = permutation(seed);
      const { s, base, uniformAfter } = rewrite(order);
      assert.deepEqual(
        uniformAfter,
        [false, false, false, false, false, false, false, true],
        `order ${order}`,
      );
      const e = s.heap[lockOf(base) + 1];
      assert.equal(s.heap[e + Info.NEXT], 0, `order ${order}: one Info`);
      for (let k = 0; k < 8; k++) assert.equal(siteAt(s.heap, e, k), siteOne(k), `order ${order}, word ${k}`);
    }
  });

  test("an attempt stopped by a word not written yet leaves that word as the page's hint", () => {
    // moldyn's order: attempts after words 0 (its first byte), 6, 1, 7 (its last byte), 4, 2 — the last stops at 5
    const { s, base } = rewrite([3, 0, 6, 1, 7, 4, 2]);
    const heads = mark(s, base);
    assert.ok(heads > 0, 'split');
    assert.equal(s.heap[heads], 5);
  });

  test('lists that differ in their sites and in their last positions stay split', () => {
    const { s, base, one } = twoThreads();
    for (let k = 0; k < 8; k++) {
      one.access(base + k, Access.MASK, Access.WRITE, siteOne(k), true);
      one.pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 10 + k), 0) + 1;
    }
    one.compact(lockOf(base)); // a merge attempt with every word written
    assert.ok(mark(s, base) > 0, 'split');
    const c = shadowCensus(s);
    assert.equal(c.uniformPages, 0);
    assert.equal(c.patternPages, 0);
  });
});
