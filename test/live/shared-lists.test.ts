/**
 * Shared lists (`src/live/shadow/goldilocks.ts` `Shadow.shareList`, issue 24 §1 memory): uniform pages whose lists
 * are equal point to one copy, never written; a page changed in place takes its own copy first. The shadow stays
 * exact: a word split out of a shared page, and the pages still sharing the list, report the races they did.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  appendCell,
  EAGER_MIN,
  ensureThread,
  STAT,
  type StateViews,
  Tag,
} from '../../src/live/memory/state.js';
import { shadowCensus } from '../../src/live/shadow/census.js';
import { collectList } from '../../src/live/shadow/eager.js';
import { Access, Info, packA, Shadow, Shared } from '../../src/live/shadow/goldilocks.js';
import { lockOf, PAGE_INTS, SHARED_SLOT, UNIFORM } from '../../src/live/shadow/table.js';
import { SyncKind } from '../../src/model/sync.js';
import { twoThreads } from '../helpers/two-threads.js';

/** Thread `one`'s loop writing the words [0, 8·pages) of the buffer at `base`, an element at a time, at site 7. */
function writePages(
  one: { access: (...a: [number, number, number, number, boolean]) => unknown },
  base: number,
  pages: number,
) {
  for (let w = 0; w < 8 * pages; w++) one.access(base + w, 0xff, Access.WRITE, 7, true);
}

/** The shared list header of page `p` of the buffer whose first word is `base`. */
const header = (s: StateViews, base: number, p = 0): number =>
  s.heap[lockOf(base) + p * PAGE_INTS + SHARED_SLOT];

describe('shared lists', () => {
  test('pages written by one loop point to one list, kept once', () => {
    const { s, base, one } = twoThreads();
    writePages(one, base, 4);
    const h = header(s, base);
    assert.notEqual(h, 0);
    for (let p = 0; p < 4; p++) {
      const page = lockOf(base) + p * PAGE_INTS;
      assert.equal(s.heap[page + 3], UNIFORM);
      assert.equal(header(s, base, p), h, `page ${p} shares the list`);
      assert.equal(s.heap[page + 1], s.heap[h + Shared.FIRST]);
    }
    assert.equal(s.heap[h + Shared.REFS], 5, '4 pages and the thread that offers it');
    const c = shadowCensus(s);
    assert.equal(c.sharedPages, 4);
    assert.equal(c.infoBytes, 2 * Info.SIZE * 4, 'one header and one Info for the 4 pages');
  });

  test('a word split out of a shared page gets its own records; the race is found through it and through the others', () => {
    const { s, base, one, two } = twoThreads();
    writePages(one, base, 2);
    const h = header(s, base);
    const shared = s.heap[h + Shared.FIRST];
    const page1 = lockOf(base) + PAGE_INTS;
    // thread 2, unordered with thread 1, reads one byte of page 1's word 5: thread 1's write races with it
    const c = two.access(base + 8 + 5, 0x10, 0, 11, true);
    assert.equal(c?.owner, 1);
    assert.equal(c?.site, 7);
    // the read was not recorded (stopOnRace), but the page was split, into copies: the shared list is as it was
    assert.equal(header(s, base, 1), 0);
    assert.notEqual(s.heap[page1 + 3], UNIFORM);
    assert.notEqual(s.heap[page1 + 1], shared);
    assert.equal(s.heap[h + Shared.FIRST], shared);
    assert.equal(s.heap[shared + Info.NEXT], 0);
    assert.equal(s.heap[shared + Info.SITE], 7);
    assert.equal(s.heap[h + Shared.REFS], 2, 'page 0 and the candidate');
    // thread 1 writes page 1's word 2 again at another site: page 0 keeps site 7
    assert.equal(one.access(base + 8 + 2, 0xff, Access.WRITE, 12, true), undefined);
    assert.equal(two.access(base + 8 + 2, 0xff, 0, 13, true)?.site, 12);
    assert.equal(two.access(base + 2, 0xff, 0, 14, true)?.site, 7);
    assert.equal(two.access(base + 8 + 6, 0xff, Access.WRITE, 15, true)?.site, 7);
  });

  test('an access that records on a whole shared page changes its own copy only', () => {
    const { s, base, one, two } = twoThreads();
    writePages(one, base, 2);
    const h = header(s, base);
    // thread 1 reads page 0 whole (a bulk access): recorded in page 0's own copy
    assert.equal(one.accessRun(base, 8, 0xff, 0xff, 0, 20, true), 8);
    assert.equal(header(s, base), 0);
    assert.equal(header(s, base, 1), h);
    assert.equal(
      s.heap[s.heap[h + Shared.FIRST] + Info.NEXT],
      0,
      'the shared list still holds the write alone',
    );
    // thread 2 writes page 1 whole: the write of thread 1 (site 7) races; page 0 has the read of site 20 first
    assert.equal(
      two.accessRun(base + 8, 8, 0xff, 0xff, Access.WRITE, 21, true),
      1,
      'stops at its first word',
    );
    assert.equal(two.lastConflict?.site, 7);
    assert.equal(two.accessRun(base, 8, 0xff, 0xff, Access.WRITE, 22, true), 1);
    assert.equal(two.lastConflict?.site, 20);
  });

  test('a range check recording on a whole shared page changes its own copy only', () => {
    const { s, base, one, two } = twoThreads();
    writePages(one, base, 2);
    const h = header(s, base);
    // thread 1's loop reads page 0 whole: one run of 8 words, read (flags 0), site 40
    assert.ok(one.accessRuns([base, 8, 0, 40, Access.MASK, 1], Int32Array.of(lockOf(base)), 1));
    assert.equal(header(s, base, 1), h);
    assert.equal(
      s.heap[s.heap[h + Shared.FIRST] + Info.NEXT],
      0,
      'the shared list still holds the write alone',
    );
    assert.equal(two.access(base + 8 + 1, 0xff, Access.WRITE, 41, true)?.site, 7);
    assert.equal(two.access(base + 1, 0xff, Access.WRITE, 42, true)?.site, 40);
  });

  test('the partially-eager collector rewrites shared pages and shares them again; the race verdicts stay', () => {
    const { s, base, one, two } = twoThreads();
    ensureThread(s, 3);
    const three = new Shadow(s, 3);
    writePages(one, base, 4); // at list position 0
    const L = packA(Tag.Named, 1);
    appendCell(s, SyncKind.Release, 1, L, 0);
    for (let i = 0; i < 2 * EAGER_MIN; i++) appendCell(s, SyncKind.Release, 3, packA(Tag.Named, 2), 0);
    const acquire = appendCell(s, SyncKind.Acquire, 2, L, 0);
    two.pos = acquire + 1;
    three.pos = acquire + 1;
    collectList(s, one);
    assert.equal(one.counts[STAT.eagerRuns], 1, 'collected');
    const h = header(s, base);
    assert.notEqual(h, 0);
    for (let p = 1; p < 4; p++) assert.equal(header(s, base, p), h, `page ${p} shares the list again`);
    assert.equal(one.counts[STAT.eagerInfos], 1, 'the list moved once, the other pages pointed to its copy');
    assert.equal(
      s.heap[h + Shared.REFS],
      5,
      '4 pages and the thread that offers it: the collection kept none',
    );
    const e = s.heap[h + Shared.FIRST];
    assert.notEqual(s.heap[e + Info.LS], 0, 'its record starts at the cut, with its lockset evaluated');
    // thread 2 acquired the lock thread 1 released after its writes: ordered; thread 3 is not
    assert.equal(two.access(base + 8 + 4, 0xff, 0, 50, true), undefined);
    assert.equal(three.access(base + 16 + 1, 0xff, 0, 51, true)?.owner, 1);
  });

  test('a shared list is freed when no page points to it and its thread offers another', () => {
    const { s, base, one } = twoThreads(false);
    writePages(one, base, 2);
    const h = header(s, base);
    const shared = s.heap[h + Shared.FIRST];
    for (let p = 0; p < 2; p++) one.access(base + 8 * p + 3, 0xff, 0, 30, true); // split both
    assert.equal(s.heap[h + Shared.REFS], 1, 'only the candidate');
    // pages 2 and 3, written at another site, make another candidate: the first list is freed
    for (let w = 16; w < 32; w++) one.access(base + w, 0xff, Access.WRITE, 31, true);
    assert.notEqual(header(s, base, 2), h);
    assert.notEqual(
      s.heap[h + Shared.FIRST],
      shared,
      'freed: the header no longer names the list (cleared, reused)',
    );
    assert.equal(shadowCensus(s).sharedPages, 2);
  });
});
