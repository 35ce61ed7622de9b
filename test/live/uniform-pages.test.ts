/**
 * Uniform pages (`src/live/shadow/goldilocks.ts`, issue 24 §1 memory): a page whose 8 words come to hold equal
 * lists is kept as one list — after a loop of one access per element over it, in either direction — and stays
 * exact: a later access of another thread is checked against the merged history as against each word's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StateViews } from '../../src/live/memory/state.js';
import { Access, Info } from '../../src/live/shadow/goldilocks.js';
import { headOf, lockOf, MARK, UNIFORM } from '../../src/live/shadow/table.js';
import { twoThreads } from '../helpers/two-threads.js';

const setUp = twoThreads;

/** The number of Infos in the lists of the 8 words of the page whose first word is `base`. */
function infos(s: StateViews, base: number): number {
  let n = 0;
  for (let k = 0; k < 8; k++)
    for (let e = s.heap[headOf(s.heap, base + k)]; e !== 0; e = s.heap[e + Info.NEXT]) n++;
  return n;
}

const isUniform = (s: StateViews, base: number): boolean => s.heap[lockOf(base) + MARK] === UNIFORM;

describe('uniform pages', () => {
  test('a loop writing a page an element at a time leaves one list for its 8 words', () => {
    const { s, base, one } = setUp();
    for (let w = 0; w < 8; w++) assert.equal(one.access(base + w, 0xff, Access.WRITE, 7, true), undefined);
    assert.ok(isUniform(s, base));
    assert.equal(infos(s, base), 1);
  });

  test('so does a loop reading it backwards, a byte at a time (Uint8Array)', () => {
    const { s, base, one } = setUp();
    for (let b = 63; b >= 0; b--) one.access(base + (b >> 3), 1 << (b & 7), 0, 9, true);
    assert.ok(isUniform(s, base));
    assert.equal(infos(s, base), 1);
  });

  test('an element written again since the last synchronization leaves the page whole', () => {
    const { s, base, one } = setUp();
    for (let w = 0; w < 8; w++) one.access(base + w, 0xff, Access.WRITE, 7, true);
    assert.equal(one.access(base + 3, 0xff, Access.WRITE, 7, true), undefined);
    assert.ok(isUniform(s, base));
    assert.equal(infos(s, base), 1);
    // another kind is another record: split
    one.access(base + 3, 0xff, 0, 8, true);
    assert.ok(!isUniform(s, base));
  });

  test('words with different histories stay apart', () => {
    const { s, base, one } = setUp();
    for (let w = 0; w < 8; w++) one.access(base + w, w === 3 ? 0x0f : 0xff, Access.WRITE, 7, true);
    assert.ok(!isUniform(s, base));
    one.splitPage(lockOf(base)); // pending (src/live/shadow/pending.ts) until another access: each word's list made
    assert.ok(!isUniform(s, base));
    assert.equal(infos(s, base), 8);
  });

  test('a merged page reports the race of any of its words, and stays exact once split', () => {
    const { s, base, one, two } = setUp();
    for (let w = 0; w < 8; w++) one.access(base + w, 0xff, Access.WRITE, 7, true);
    assert.ok(isUniform(s, base));
    // thread 2, unordered with thread 1, reads one byte of word 5: the write of thread 1 races with it
    const c = two.access(base + 5, 0x10, 0, 11, true);
    assert.equal(c?.owner, 1);
    assert.equal(c?.site, 7);
    // thread 1 reads word 2 again: its own write, no race; the other words keep the write
    assert.equal(one.access(base + 2, 0xff, 0, 12, true), undefined);
    assert.equal(two.access(base + 6, 0xff, Access.WRITE, 13, true)?.owner, 1);
  });
});
