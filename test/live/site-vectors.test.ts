/**
 * Site vectors (`src/live/shadow/site-vectors.ts`, issue 24 §1 memory): a page whose 8 words'
 * lists differ only in their sites — moldyn's `pos[3*j + d]` read at three sites, its `acc[base + 3*j + d]` written
 * at three in no order — is kept as one list whose records name a vector of the 8 sites, and stays exact: a race on
 * any word names the site of that word's access, whether the page is split by the access or checked whole.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StateViews } from '../../src/live/memory/state.js';
import { shadowCensus } from '../../src/live/shadow/census.js';
import { Access, Info, type Shadow, siteAt } from '../../src/live/shadow/goldilocks.js';
import { headOf, lockOf, MARK, UNIFORM } from '../../src/live/shadow/table.js';
import { twoThreads } from '../helpers/two-threads.js';

/** The site of thread 1's access to word `k`: three sites in turn, as `pos[3*j]`, `pos[3*j + 1]`, `pos[3*j + 2]`. */
const siteOne = (k: number): number => 20 + (k % 3);
/** The site of thread 2's access to word `k`: three others. */
const siteTwo = (k: number): number => 30 + (k % 3);

const isUniform = (s: StateViews, base: number): boolean => s.heap[lockOf(base) + MARK] === UNIFORM;

/** The Infos of the lists of the 8 words of the page whose first word is `base`. */
function infos(s: StateViews, base: number): number {
  let n = 0;
  for (let k = 0; k < 8; k++)
    for (let e = s.heap[headOf(s.heap, base + k)]; e > 0; e = s.heap[e + Info.NEXT]) n++;
  return n;
}

/** The head of the list of the page's first word (of a uniform page: the page's list). */
const firstHead = (s: StateViews, base: number): number => s.heap[lockOf(base) + 1];

/** Thread `t` accesses the 8 words of the page whose first word is `base`, in the order `order`, at the sites `site(k)`. */
function accessPage(t: Shadow, base: number, flags: number, site: (k: number) => number, order: number[]) {
  for (const k of order) t.access(base + k, Access.MASK, flags, site(k), false);
}

const upward = [0, 1, 2, 3, 4, 5, 6, 7];
/** No end of the page last: moldyn's `acc` writes of the pairs within the cut-off. */
const scattered = [3, 0, 6, 1, 7, 4, 2, 5];

describe('site vectors', () => {
  test('a page read at three sites in turn keeps one list, each record naming its 8 sites', () => {
    const { s, base, one } = twoThreads();
    accessPage(one, base, Access.WRITE, siteOne, upward);
    assert.ok(isUniform(s, base));
    assert.equal(infos(s, base), 1);
    const e = firstHead(s, base);
    assert.ok(s.heap[e + Info.SITE] < 0, 'a site vector');
    for (let k = 0; k < 8; k++) assert.equal(siteAt(s.heap, e, k), siteOne(k));
  });

  test('so does a page written in no order: merged once its last word is written', () => {
    const { s, base, one } = twoThreads();
    accessPage(one, base, Access.WRITE, siteOne, scattered.slice(0, 7));
    assert.ok(!isUniform(s, base), 'a word not written yet');
    accessPage(one, base, Access.WRITE, siteOne, scattered.slice(7));
    assert.ok(isUniform(s, base));
    assert.equal(infos(s, base), 1);
  });

  test("another thread's access splits the page and each word's race names that word's site", () => {
    for (let k = 0; k < 8; k++) {
      const { s, base, one, two } = twoThreads();
      accessPage(one, base, Access.WRITE, siteOne, upward);
      assert.ok(isUniform(s, base));
      // thread 2, unordered with thread 1, reads word k: the race names thread 1's write of word k
      const c = two.access(base + k, Access.MASK, 0, 40, true);
      assert.equal(c?.owner, 1, `word ${k}`);
      assert.equal(c?.site, siteOne(k), `word ${k}`);
      assert.ok(!isUniform(s, base));
      for (let w = 0; w < 8; w++) {
        const e = s.heap[headOf(s.heap, base + w)];
        assert.equal(s.heap[e + Info.SITE], siteOne(w), `word ${w} split with its own site`);
      }
    }
  });

  test('a check of the merged list for one word (its own read again) names the site of that word', () => {
    for (let k = 0; k < 8; k++) {
      const { s, base, one, two } = twoThreads();
      accessPage(two, base, Access.WRITE, siteTwo, upward);
      // thread 1 reads every word, unordered (report mode: recorded): [its read, thread 2's write] on each word; an
      // access that races merges nothing, the collector's compaction merges the page (`./eager.ts`)
      accessPage(one, base, 0, siteOne, upward);
      assert.ok(!isUniform(s, base));
      one.compact(lockOf(base));
      assert.ok(isUniform(s, base));
      assert.equal(infos(s, base), 2);
      // the same read of word k again: the list is left whole, the race with thread 2's write of word k reported
      const c = one.access(base + k, Access.MASK, 0, siteOne(k), true);
      assert.equal(c?.owner, 2, `word ${k}`);
      assert.equal(c?.site, siteTwo(k), `word ${k}`);
      assert.ok(isUniform(s, base), 'unchanged: kept whole');
    }
  });

  test('a whole-page access checked on the merged list names the first word, the race it stops at', () => {
    const { s, base, one, two } = twoThreads();
    accessPage(one, base, Access.WRITE, siteOne, upward);
    const done = two.accessRun(base, 8, Access.MASK, Access.MASK, 0, 40, true);
    assert.equal(done, 1);
    assert.equal(two.lastConflict?.site, siteOne(0));
    assert.ok(isUniform(s, base));
  });

  test('the pages of one loop get the same vectors and share one list', () => {
    const { s, base, one } = twoThreads();
    // 4 pages, each word at the site of its index in the page: the same 8 sites on every page
    for (let p = 0; p < 4; p++) accessPage(one, base + 8 * p, Access.WRITE, siteOne, upward);
    const census = shadowCensus(s);
    assert.equal(census.uniformPages, 4);
    assert.equal(census.sharedPages, 4);
    const first = firstHead(s, base);
    for (let p = 1; p < 4; p++) assert.equal(firstHead(s, base + 8 * p), first, `page ${p}`);
  });

  test('pages taking three vectors in turn (moldyn: three sites over 8 words) share three lists', () => {
    const { s, base, one } = twoThreads();
    // word k of page p at the site of its index in the array modulo 3: pages 0, 3 alike, 1 and 2 apart
    for (let p = 0; p < 4; p++)
      accessPage(one, base + 8 * p, Access.WRITE, (k) => siteOne(8 * p + k), upward);
    const census = shadowCensus(s);
    assert.equal(census.uniformPages, 4);
    assert.equal(census.sharedPages, 4);
    assert.equal(firstHead(s, base + 8 * 3), firstHead(s, base), "page 3 shares page 0's list");
    assert.equal(census.sharedInfoBytes, 6 * Info.SIZE * 4, 'three lists of one Info, and their headers');
  });
});
