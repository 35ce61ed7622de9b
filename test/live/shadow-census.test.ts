/**
 * The census of the shadow heap (`src/live/shadow/census.ts`): the report's `stats` state the shadow state's bytes by
 * part (word tables, Info records by kind of list, uniform pages), so that memory is stated per shared byte (issue 24 §1).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { shadowCensus } from '../../src/live/shadow/census.js';
import { Access, Info } from '../../src/live/shadow/goldilocks.js';
import { twoThreads } from '../helpers/two-threads.js';

const INFO_BYTES = Info.SIZE * 4;

describe('shadow census', () => {
  test('counts the word table of a registered buffer and no Info before any access', () => {
    const { s } = twoThreads();
    const c = shadowCensus(s);
    assert.equal(c.tableBytes, 4 * 16, 'a 256-byte buffer: 4 pages of four Int32');
    assert.equal(c.pages, 4);
    assert.equal(c.infoBytes, 0);
    assert.ok(c.heapBytes >= c.tableBytes);
  });

  test('counts the Infos linked from the word tables, a uniform page once', () => {
    const { s, base, one, two } = twoThreads();
    for (let w = 0; w < 8; w++) one.access(base + w, 0xff, Access.WRITE, 7, true); // page 0: merged
    two.access(base + 8 + 3, 0xff, 0, 8, true); // page 1: one word read
    two.access(base + 8 + 4, 0x0f, Access.ATOMIC, 9, true); // and another, atomically: the page is split
    const c = shadowCensus(s);
    assert.equal(c.uniformPages, 1);
    assert.equal(c.sharedPages, 1, "page 0's list became this thread's candidate to share");
    assert.equal(c.infoBytes, 4 * INFO_BYTES, 'page 0: a header and one Info; page 1: two Infos');
    assert.equal(c.sharedInfoBytes, 2 * INFO_BYTES, "page 0's shared list: its header and its Info");
    assert.equal(c.splitInfoBytes, 2 * INFO_BYTES, 'page 1, split: the lists of its words');
    assert.equal(c.tableBytes, 4 * 16 + INFO_BYTES, 'the 4 pages and the heads record of page 1, split');
  });

  test('a split page takes its heads record when a word other than its first is recorded, and frees it merged', () => {
    const { s, base, one } = twoThreads(false);
    one.access(base, 0xff, Access.WRITE, 7, true); // page 0, word 0 only: its head is in the page slot
    assert.equal(shadowCensus(s).tableBytes, 4 * 16);
    one.access(base + 5, 0xff, Access.WRITE, 7, true);
    assert.equal(shadowCensus(s).tableBytes, 4 * 16 + INFO_BYTES, 'word 5 needs the heads record');
    for (let w = 0; w < 8; w++) one.access(base + w, 0xff, Access.WRITE, 7, true); // equal lists: merged
    const c = shadowCensus(s);
    assert.equal(c.uniformPages, 1);
    assert.equal(c.tableBytes, 4 * 16, 'the heads record is freed with the merge');
  });
});
