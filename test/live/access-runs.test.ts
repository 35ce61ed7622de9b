/**
 * Range checks' Owner case (`Shadow.accessRuns`, `src/live/shadow/goldilocks.ts`, issue 24 §1): a word whose Infos
 * are all this thread's is decided and recorded inline; the state it leaves is the one the per-access checks leave,
 * and a word with any other thread's Info — even behind this thread's own — still goes to the full check.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { STAT, type StateViews } from '../../src/live/memory/state.js';
import { Access, Info, type Shadow } from '../../src/live/shadow/goldilocks.js';
import { headOf, lockOf, MARK, PAGE_INTS, UNIFORM } from '../../src/live/shadow/table.js';
import { twoThreads } from '../helpers/two-threads.js';

const setUp = twoThreads;

/**
 * `shadow.accessRuns` of one run of `n` words from heap index `word`, every `step`-th one (the bytes `mask` of each),
 * with its pages.
 */
function run(
  shadow: Shadow,
  word: number,
  n: number,
  flags: number,
  site: number,
  mask = Access.MASK,
  step = 1,
): boolean {
  const pages: number[] = [];
  for (let p = lockOf(word); p <= lockOf(word + step * (n - 1)); p += PAGE_INTS) pages.push(p);
  return shadow.accessRuns([word, n, flags, site, mask, step], Int32Array.from(pages), pages.length);
}

/** The lists of the 32 words from `base`, Info by Info (every field but NEXT), UNIFORM marked. */
function lists(s: StateViews, base: number): string {
  const out: string[] = [];
  for (let w = 0; w < 32; w++) {
    if ((w & 7) === 1 && s.heap[lockOf(base + w) + MARK] === UNIFORM) {
      out.push('=');
      continue;
    }
    const head = s.heap[headOf(s.heap, base + w)];
    const infos: string[] = [];
    for (let e = head; e !== 0; e = s.heap[e + Info.NEXT])
      infos.push(Array.from(s.heap.subarray(e + 1, e + Info.SIZE)).join(','));
    out.push(infos.join(' '));
  }
  return out.join(' | ');
}

describe('range checks: the Owner case', () => {
  test('leaves the state of the per-access checks, epoch after epoch', () => {
    const a = setUp();
    const b = setUp(false);
    // words 3–28 (the first and last pages partly), read then written, each kind twice, with a new epoch between
    const steps: Array<[number, number, number]> = [
      [0, 5, 1],
      [0, 6, 1],
      [Access.WRITE, 7, 2],
      [Access.WRITE, 7, 3],
      [0, 8, 3],
      [Access.WRITE, 9, 4],
    ];
    for (const [flags, site, pos] of steps) {
      a.one.pos = pos;
      b.one.pos = pos;
      assert.ok(run(a.one, a.base + 3, 26, flags, site));
      for (let w = 3; w < 29; w++)
        assert.equal(b.one.access(b.base + w, Access.MASK, flags, site, true), undefined);
      assert.equal(lists(a.s, a.base), lists(b.s, b.base), `after ${flags ? 'write' : 'read'} at ${site}`);
    }
    // the whole pages in between were recorded once each, in place
    const page = lockOf(a.base) + PAGE_INTS;
    assert.equal(a.s.heap[page + MARK], UNIFORM);
    const e = a.s.heap[page + 1];
    assert.equal(a.s.heap[e + Info.NEXT], 0);
    assert.equal(a.s.heap[e + Info.POS], 4);
    assert.equal(a.s.heap[e + Info.SITE], 9);
    assert.equal(a.s.heap[e + Info.FLAGS], Access.MASK | Access.WRITE);
  });

  test('is counted as owner short-circuits, as the per-access checks count them', () => {
    const { base, one } = setUp();
    assert.ok(run(one, base, 32, Access.WRITE, 7));
    const before = Array.from(one.counts);
    one.pos = 1;
    assert.ok(run(one, base, 32, Access.WRITE, 7)); // 4 uniform pages, each its own write
    assert.equal(one.counts[STAT.accesses] - before[STAT.accesses], 4);
    assert.equal(one.counts[STAT.checks] - before[STAT.checks], 4);
    assert.equal(one.counts[STAT.shortCircuitOwner] - before[STAT.shortCircuitOwner], 4);
    one.pos = 2;
    assert.ok(run(one, base, 32, 0, 8)); // a read after its own write: that write conflicts with it
    assert.equal(one.counts[STAT.accesses] - before[STAT.accesses], 8);
    assert.equal(one.counts[STAT.checks] - before[STAT.checks], 8);
    assert.equal(one.counts[STAT.shortCircuitOwner] - before[STAT.shortCircuitOwner], 8);
    one.pos = 3;
    assert.ok(run(one, base, 32, 0, 8)); // again: its own read does not conflict with it, its own write does
    assert.equal(one.counts[STAT.accesses] - before[STAT.accesses], 12);
    assert.equal(one.counts[STAT.checks] - before[STAT.checks], 12);
  });

  test("another thread's Info behind this thread's own is still checked: the race found, nothing recorded", () => {
    const { s, base, one, two } = setUp();
    // thread 2 writes word 9, then thread 1 (unordered) reads it: the list is [1's read, 2's write]
    two.access(base + 9, Access.MASK, Access.WRITE, 5, false);
    assert.equal(one.access(base + 9, Access.MASK, 0, 6, false)?.owner, 2);
    const head = s.heap[headOf(s.heap, base + 9)];
    assert.equal(s.heap[head + Info.OWNER], 1);
    assert.equal(s.heap[s.heap[head + Info.NEXT] + Info.OWNER], 2);
    const before = lists(s, base);
    one.pos = 3;
    // thread 1 writes words 8–15 in a loop: its write races with thread 2's on word 9
    assert.equal(run(one, base + 8, 8, Access.WRITE, 7), false);
    assert.equal(lists(s, base), before);
    // so does a read-only loop over a page whose one Info is thread 2's write
    two.pos = 3;
    assert.ok(run(two, base + 24, 8, Access.WRITE, 8));
    assert.equal(run(one, base + 24, 8, 0, 9), false);
  });
});

describe('range checks: runs of some bytes of each word', () => {
  test("leave the state of the per-access checks: crypt's 8 bytes per word at 8 sites, read then written", () => {
    const a = setUp();
    const b = setUp(false);
    for (const [flags, pos] of [
      [0, 1],
      [Access.WRITE, 1],
      [0, 2],
    ]) {
      a.one.pos = pos;
      b.one.pos = pos;
      for (let byte = 0; byte < 8; byte++) assert.ok(run(a.one, a.base + 3, 26, flags, 10 + byte, 1 << byte));
      for (let w = 3; w < 29; w++)
        for (let byte = 0; byte < 8; byte++)
          assert.equal(b.one.access(b.base + w, 1 << byte, flags, 10 + byte, true), undefined);
      assert.equal(lists(a.s, a.base), lists(b.s, b.base), `after ${flags ? 'write' : 'read'} at ${pos}`);
    }
  });

  test('lanes over the same words in one call: checked as one access of their bytes, each recorded with its site', () => {
    const lanes = (word: number, flags: number) =>
      Array.from({ length: 8 }, (_, byte) => [word, 26, flags, 10 + byte, 1 << byte, 1]).flat();
    const pagesOf = (word: number) => Int32Array.from({ length: 4 }, (_, k) => lockOf(word) + k * PAGE_INTS);
    const a = setUp();
    const b = setUp(false);
    for (const [flags, pos] of [
      [0, 1],
      [Access.WRITE, 2],
    ]) {
      a.one.pos = pos;
      b.one.pos = pos;
      assert.ok(a.one.accessRuns(lanes(a.base + 3, flags), pagesOf(a.base + 3), 4));
      for (let w = 3; w < 29; w++)
        for (let byte = 0; byte < 8; byte++)
          assert.equal(b.one.access(b.base + w, 1 << byte, flags, 10 + byte, true), undefined);
      assert.equal(lists(a.s, a.base), lists(b.s, b.base));
    }
    // another thread's unordered write of byte 6 of word 20: the lanes' one check finds it, nothing is recorded
    const c = setUp(false);
    assert.equal(c.two.access(c.base + 20, 0x40, Access.WRITE, 5, true), undefined);
    const before = lists(c.s, c.base);
    assert.equal(c.one.accessRuns(lanes(c.base + 3, 0), pagesOf(c.base + 3), 4), false);
    assert.equal(lists(c.s, c.base), before);
  });

  test("another thread's unordered write of one byte conflicts with that byte only; a conflict records nothing", () => {
    const { s, base, one, two } = setUp(false);
    for (let w = 0; w < 32; w++) assert.equal(two.access(base + w, 0x01, Access.WRITE, 5, true), undefined);
    const before = lists(s, base);
    assert.equal(run(one, base + 1, 30, 0, 6, 0x01), false);
    assert.equal(run(one, base + 1, 30, 0, 6, 0x03), false);
    assert.equal(lists(s, base), before);
    assert.equal(run(one, base + 1, 30, Access.WRITE, 6, 0x80), true);
    assert.notEqual(lists(s, base), before);
  });
});

describe('range checks: runs of every step-th word (lanes of whole words)', () => {
  for (const step of [2, 3, 8])
    test(`step ${step}: leave the state of the per-access checks of those words, epoch after epoch`, () => {
      const a = setUp();
      const b = setUp(false);
      const n = Math.floor(28 / step); // words 1, 1 + step, … before 29
      // a red-black sweep's steps: a lane written, the other read, in turns, with a new epoch between
      const steps: Array<[number, number, number, number]> = [
        [Access.WRITE, 0, 5, 1],
        [0, 1, 6, 1],
        [0, 0, 7, 2],
        [Access.WRITE, 0, 8, 2],
        [0, 1, 8, 2],
        [Access.WRITE, 1, 9, 3],
        [0, 0, 9, 3],
      ];
      for (const [flags, lane, site, pos] of steps) {
        a.one.pos = pos;
        b.one.pos = pos;
        assert.ok(run(a.one, a.base + 1 + lane, n, flags, site, Access.MASK, step));
        for (let k = 0; k < n; k++)
          assert.equal(b.one.access(b.base + 1 + lane + step * k, Access.MASK, flags, site, true), undefined);
        assert.equal(
          lists(a.s, a.base),
          lists(b.s, b.base),
          `after ${flags ? 'write' : 'read'} of lane ${lane}`,
        );
      }
    });

  test("another thread's unordered write conflicts on a word of the run only; a conflict records nothing", () => {
    const { s, base, one, two } = setUp(false);
    assert.equal(two.access(base + 10, Access.MASK, Access.WRITE, 5, true), undefined);
    const before = lists(s, base);
    assert.equal(run(one, base + 4, 10, 0, 6, Access.MASK, 2), false); // words 4, 6, …, 22: 10 among them
    assert.equal(lists(s, base), before);
    assert.equal(run(one, base + 3, 10, Access.WRITE, 6, Access.MASK, 2), true); // words 3, 5, …, 21
    const head = s.heap[headOf(s.heap, base + 10)];
    assert.equal(s.heap[head + Info.OWNER], 2);
    assert.equal(s.heap[head + Info.NEXT], 0);
    assert.equal(s.heap[s.heap[headOf(s.heap, base + 11)] + Info.OWNER], 1);
  });
});
