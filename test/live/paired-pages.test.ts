/**
 * Paired pages (`src/live/shadow/pages.ts` `Pages.pair`, issue 24 §1, the opening SOR): a page whose even words share
 * one history and odd words another (a red-black sweep over a `Float64Array`) keeps two lists, and stays exact: each
 * word's race verdict is the one its own list gives, per access, in a range check over one colour's lane, after a
 * split and after the partially-eager collector rewrote the page; and on random programs of range checks, single
 * accesses and synchronization over three threads, every verdict equals that of checkers that keep a list per word
 * (property-based, with shrinking).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { appendCell, EAGER_MIN, ensureThread, STAT, Tag } from '../../src/live/memory/state.js';
import { shadowCensus } from '../../src/live/shadow/census.js';
import { collectList } from '../../src/live/shadow/eager.js';
import { Access, Info, packA, Shadow } from '../../src/live/shadow/goldilocks.js';
import { Pair, sameList } from '../../src/live/shadow/records.js';
import { headOf, lockOf, MARK, PAGE_INTS, PAIRED, SHARED_SLOT } from '../../src/live/shadow/table.js';
import { SyncKind } from '../../src/model/sync.js';
import { twoThreads } from '../helpers/two-threads.js';

/** A checker that keeps a list per word: no uniform, paired or pending page (the reference of the property). */
class WordShadow extends Shadow {
  protected override uniformPages = false;
  protected override pendingPages = false;
}

/**
 * `shadow.accessRuns` of the runs `runs` (six numbers each: first word, words, flags, site, mask, step), with their
 * pages, ascending.
 */
function rangeCheck(shadow: Shadow, runs: number[]): boolean {
  const pages = new Set<number>();
  for (let r = 0; r < runs.length; r += 6)
    for (let k = 0; k < runs[r + 1]; k++) pages.add(lockOf(runs[r] + runs[r + 5] * k));
  const sorted = Int32Array.from([...pages].sort((a, b) => a - b));
  return shadow.accessRuns(runs, sorted, sorted.length);
}

/** Thread 1's sweep of page 0: its even words written (site 7), its odd words read (site 8). */
function sweep() {
  const t = twoThreads();
  assert.ok(
    rangeCheck(t.one, [t.base, 4, Access.WRITE, 7, Access.MASK, 2, t.base + 1, 4, 0, 8, Access.MASK, 2]),
  );
  return t;
}

describe('paired pages', () => {
  test("a page whose even words were written and odd words read keeps two lists: the colours' histories", () => {
    const { s, base } = sweep();
    const page = lockOf(base);
    assert.equal(s.heap[page + MARK], PAIRED);
    const h = s.heap[page + SHARED_SLOT];
    const c = shadowCensus(s);
    assert.equal(c.pairedPages, 1);
    assert.equal(c.infoBytes, 3 * Info.SIZE * 4, 'one Info per colour, and the pair header');
    assert.equal(s.heap[s.heap[h + Pair.EVEN] + Info.FLAGS], Access.MASK | Access.WRITE);
    assert.equal(s.heap[s.heap[h + Pair.ODD] + Info.FLAGS], Access.MASK);
    for (let k = 0; k < 8; k++)
      assert.equal(headOf(s.heap, base + k), h + Pair.EVEN + (k & 1), `word ${k}'s head`);
  });

  test('pages swept alike share one pair header; a lane over them records one copy of it, which they all point to', () => {
    const t = twoThreads();
    const { s, base, one, two } = t;
    // thread 1 sweeps pages 0-2 (words 0-23): one run per colour
    assert.ok(
      rangeCheck(one, [base, 12, Access.WRITE, 7, Access.MASK, 2, base + 1, 12, 0, 8, Access.MASK, 2]),
    );
    const headers = [0, 1, 2].map((p) => s.heap[lockOf(base) + p * PAGE_INTS + SHARED_SLOT]);
    assert.deepEqual(headers, [headers[0], headers[0], headers[0]], 'one header');
    assert.equal(s.heap[headers[0] + Pair.REFS], 4, 'three pages and the candidate');
    assert.equal(shadowCensus(s).infoBytes, 3 * Info.SIZE * 4, 'counted once');
    // thread 2 reads the odd words of the three pages: one copy, recorded once, for all three
    assert.ok(rangeCheck(two, [base + 1, 12, 0, 9, Access.MASK, 2]));
    const after = [0, 1, 2].map((p) => s.heap[lockOf(base) + p * PAGE_INTS + SHARED_SLOT]);
    assert.notEqual(after[0], headers[0]);
    assert.deepEqual(after, [after[0], after[0], after[0]], 'one new header');
    assert.equal(s.heap[after[0] + Pair.REFS], 3, 'the three pages');
    assert.equal(s.heap[headers[0] + Pair.REFS], 1, 'the old one: its candidate reference only');
    // thread 2's reads are on the odd words of all three pages
    assert.equal(one.access(base + 17, Access.MASK, Access.WRITE, 10, true)?.owner, 2);
    assert.equal(one.access(base + 16, Access.MASK, Access.WRITE, 11, true), undefined);
  });

  test('each word races as its own list says: per access, the page split first', () => {
    for (let k = 0; k < 8; k++) {
      const { s, base, two } = sweep();
      const c = two.access(base + k, Access.MASK, 0, 9, true); // thread 2's read, unordered
      if (k % 2 === 0) assert.equal(c?.owner, 1, `word ${k}: races with thread 1's write`);
      else assert.equal(c, undefined, `word ${k}: two reads`);
      assert.notEqual(s.heap[lockOf(base) + MARK], PAIRED, 'split');
    }
  });

  test("a range check over one colour's lane checks and records its list once; the page stays paired", () => {
    const { s, base, one, two } = sweep();
    const page = lockOf(base);
    assert.ok(rangeCheck(two, [base + 1, 4, 0, 9, Access.MASK, 2]), 'reads of the odd words: no race');
    assert.equal(s.heap[page + MARK], PAIRED);
    assert.equal(two.counts[STAT.accesses], 1, 'one list checked for the 4 words');
    assert.equal(rangeCheck(two, [base, 4, 0, 9, Access.MASK, 2]), false, 'reads of the even words: a race');
    assert.equal(s.heap[page + MARK], PAIRED, 'nothing recorded');
    // thread 2's reads are on the odd words only: thread 1's write races there, not on an even word
    assert.equal(one.access(base + 5, Access.MASK, Access.WRITE, 10, true)?.owner, 2);
    assert.equal(one.access(base + 6, Access.MASK, Access.WRITE, 11, true), undefined);
  });

  test('a run over whole pages of one header records both lists once; the pages stay paired', () => {
    const { s, base, one, two } = twoThreads();
    assert.ok(
      rangeCheck(one, [base, 12, Access.WRITE, 7, Access.MASK, 2, base + 1, 12, 0, 8, Access.MASK, 2]),
    );
    one.pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 2), 0) + 1;
    two.pos = appendCell(s, SyncKind.Acquire, 2, packA(Tag.Named, 2), 0) + 1;
    const accesses = two.counts[STAT.accesses];
    assert.ok(
      rangeCheck(two, [base, 24, 0, 9, Access.MASK, 1]),
      'reads of pages 0-2, ordered after the sweep',
    );
    assert.equal(two.counts[STAT.accesses] - accesses, 6, "each page's two lists checked, not its 8 words");
    const headers = [0, 1, 2].map((p) => s.heap[lockOf(base) + p * PAGE_INTS + SHARED_SLOT]);
    assert.deepEqual(
      [0, 1, 2].map((p) => s.heap[lockOf(base) + p * PAGE_INTS + MARK]),
      [PAIRED, PAIRED, PAIRED],
    );
    assert.deepEqual(headers, [headers[0], headers[0], headers[0]], 'one new header');
    // thread 2's reads are on every word; thread 1's writes after them, unordered, race
    assert.equal(one.access(base + 16, Access.MASK, Access.WRITE, 10, true)?.owner, 2);
    assert.equal(one.access(base + 23, Access.MASK, Access.WRITE, 11, true)?.owner, 2);
  });

  test("a lane over part of a colour splits the page: each word's own record", () => {
    const { s, base, one, two } = sweep();
    assert.ok(rangeCheck(two, [base + 3, 3, 0, 9, Access.MASK, 2]), 'words 3, 5, 7');
    assert.notEqual(s.heap[lockOf(base) + MARK], PAIRED);
    assert.equal(
      one.access(base + 1, Access.MASK, Access.WRITE, 10, true),
      undefined,
      'word 1: not read by 2',
    );
    assert.equal(one.access(base + 3, Access.MASK, Access.WRITE, 11, true)?.owner, 2, 'word 3: read by 2');
  });

  test("a lane over the first 3 of a colour's 4 words records those 3 only", () => {
    const { s, base, one, two } = sweep();
    one.pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 2), 0) + 1;
    two.pos = appendCell(s, SyncKind.Acquire, 2, packA(Tag.Named, 2), 0) + 1;
    assert.ok(
      rangeCheck(one, [base, 3, Access.WRITE, 9, Access.MASK, 2]),
      'words 0, 2, 4, after the release',
    );
    assert.equal(
      two.access(base + 6, Access.MASK, 0, 10, true),
      undefined,
      'word 6: written before the release',
    );
    assert.equal(two.access(base + 4, Access.MASK, 0, 11, true)?.owner, 1, 'word 4: written after it');
  });

  test("a split gives each word a copy of its colour's list, and drops its reference on the pair header", () => {
    const { s, base, one } = sweep();
    const page = lockOf(base);
    const h = s.heap[page + SHARED_SLOT];
    one.splitPage(page);
    assert.ok(s.heap[page + MARK] > 0, 'split, with a heads record');
    assert.equal(s.heap[page + SHARED_SLOT], 0);
    for (let k = 0; k < 8; k++) {
      const head = s.heap[headOf(s.heap, base + k)];
      assert.ok(sameList(s.heap, head, s.heap[h + (k % 2 === 0 ? Pair.EVEN : Pair.ODD)]), `word ${k}`);
      assert.notEqual(head, s.heap[h + Pair.EVEN + (k & 1)], `word ${k}: a copy`);
    }
    assert.equal(s.heap[h + Pair.REFS], 1, "the candidate's");
  });

  test('the partially-eager collector rewrites a paired page; the race verdicts stay', () => {
    const { s, base, one, two } = sweep();
    ensureThread(s, 3);
    const three = new Shadow(s, 3);
    for (let i = 0; i < 2 * EAGER_MIN; i++) appendCell(s, SyncKind.Release, 3, packA(Tag.Named, 2), 0);
    two.pos = appendCell(s, SyncKind.Acquire, 2, packA(Tag.Named, 2), 0) + 1;
    three.pos = two.pos;
    collectList(s, one);
    assert.equal(one.counts[STAT.eagerRuns], 1, 'collected');
    assert.equal(s.heap[lockOf(base) + MARK], PAIRED, 'paired again');
    assert.equal(two.access(base + 2, Access.MASK, 0, 50, true)?.owner, 1, 'word 2: races');
    assert.equal(two.access(base + 3, Access.MASK, 0, 51, true), undefined, 'word 3: two reads');
    assert.equal(three.access(base + 5, Access.MASK, Access.WRITE, 52, true)?.owner, 1, 'word 5: races');
  });
});

/** One step of a random program over threads 1–3 and a 4-page buffer (32 words). */
type Op =
  | { kind: 'range'; t: number; runs: { first: number; n: number; write: boolean; step: number }[] }
  | { kind: 'access'; t: number; word: number; write: boolean; mask: number }
  | { kind: 'sync'; t: number; acquire: boolean; lock: number };

/** A thread and whole pages of the buffer from page `page` on (`pages` of them, some past its end). */
const wholePages = {
  t: fc.integer({ min: 1, max: 3 }),
  page: fc.nat(3),
  pages: fc.integer({ min: 1, max: 4 }),
};

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('range' as const),
      t: fc.integer({ min: 1, max: 3 }),
      runs: fc.array(
        fc.record({
          // biased to the lanes of whole pages (from a page's first or second word, 4 words a page), and their ends
          first: fc.oneof(fc.nat(31), fc.constantFrom(0, 1, 8, 9, 16, 17)),
          n: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.constantFrom(3, 4, 8, 12)),
          write: fc.boolean(),
          step: fc.constantFrom(1, 2, 2, 2, 3),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  },
  {
    // a red-black half sweep over whole pages: one colour written, the other read
    weight: 2,
    arbitrary: fc.record({ ...wholePages, c: fc.nat(1) }).map(({ t, page, pages, c }) => ({
      kind: 'range' as const,
      t,
      runs: [
        { first: 8 * page + c, n: 4 * pages, write: true, step: 2 },
        { first: 8 * page + 1 - c, n: 4 * pages, write: false, step: 2 },
      ],
    })),
  },
  {
    // a loop over whole pages, every word (the sum of a grid after a sweep)
    weight: 1,
    arbitrary: fc.record({ ...wholePages, write: fc.boolean() }).map(({ t, page, pages, write }) => ({
      kind: 'range' as const,
      t,
      runs: [{ first: 8 * page, n: 8 * pages, write, step: 1 }],
    })),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('access' as const),
      t: fc.integer({ min: 1, max: 3 }),
      word: fc.nat(31),
      write: fc.boolean(),
      mask: fc.constantFrom(Access.MASK, 0x0f, 0xf0),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('sync' as const),
      t: fc.integer({ min: 1, max: 3 }),
      acquire: fc.boolean(),
      lock: fc.nat(1),
    }),
  },
);

/**
 * The words of each run, in order, in bounds, none in two runs of one range check (a range check takes each element
 * once: `../../src/live/spans.ts`).
 */
function wordsOf(runs: { first: number; n: number; step: number }[]): number[][] {
  const seen = new Set<number>();
  return runs.map((r) => {
    const out: number[] = [];
    for (let k = 0, w = r.first; k < r.n && w < 32; k++, w += r.step) {
      if (seen.has(w)) break;
      out.push(w);
    }
    for (const w of out) seen.add(w);
    return out;
  });
}

/** Programs whose run with range checks left a paired page after some step (the property is not vacuous). */
let pairedPrograms = 0;

/** Runs a program on fresh checkers, range checks taken when `ranges`. @returns every verdict. */
function verdicts(program: Op[], ranges: boolean): string[] {
  const { s, base } = twoThreads();
  ensureThread(s, 3);
  const Checker = ranges ? Shadow : WordShadow;
  const threads = [undefined, new Checker(s, 1), new Checker(s, 2), new Checker(s, 3)] as Shadow[];
  const out: string[] = [];
  let paired = false;
  program.forEach((o, i) => {
    for (let p = 0; p < 4 * PAGE_INTS; p += PAGE_INTS) paired ||= s.heap[lockOf(base) + p + MARK] === PAIRED;
    const shadow = threads[o.t];
    const site = 5 + i;
    if (o.kind === 'sync') {
      const kind = o.acquire ? SyncKind.Acquire : SyncKind.Release;
      shadow.pos = appendCell(s, kind, o.t, packA(Tag.Named, 20 + o.lock), 0) + 1;
      return;
    }
    if (o.kind === 'access') {
      const c = shadow.access(base + o.word, o.mask, o.write ? Access.WRITE : 0, site, true);
      out.push(`${i}: ${c === undefined ? '-' : `${c.owner}/${c.flags & Access.WRITE}`}`);
      return;
    }
    const words = wordsOf(o.runs);
    const runs: number[] = [];
    o.runs.forEach((r, k) => {
      if (words[k].length > 0)
        runs.push(base + words[k][0], words[k].length, r.write ? Access.WRITE : 0, site, Access.MASK, r.step);
    });
    if (runs.length === 0) return;
    if (ranges && rangeCheck(shadow, runs)) {
      out.push(`${i}: range`);
      return;
    }
    // the loop's per-access checks, up to the first race (where it throws)
    for (let k = 0; k < o.runs.length; k++)
      for (const w of words[k]) {
        const c = shadow.access(base + w, Access.MASK, o.runs[k].write ? Access.WRITE : 0, site, true);
        if (c === undefined) continue;
        out.push(`${i}: ${w} ${c.owner}/${c.flags & Access.WRITE}`);
        return;
      }
    out.push(`${i}: range`);
  });
  if (paired) pairedPrograms++;
  // the state left: every thread's read and write of every word, checked (not recorded) on its own list
  for (let p = 0; p < 4 * PAGE_INTS; p += PAGE_INTS) threads[1].splitPage(lockOf(base) + p);
  for (let w = 0; w < 32; w++)
    for (let t = 1; t <= 3; t++)
      for (const flags of [0, Access.WRITE]) {
        const c = threads[t].find(base + w, Access.MASK, flags);
        out.push(`end ${w} ${t} ${flags}: ${c === undefined ? '-' : `${c.owner}/${c.flags & Access.WRITE}`}`);
      }
  return out;
}

describe('paired pages against a list per word', () => {
  test('every verdict of random programs equals the per-word checkers', () => {
    pairedPrograms = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (program) => {
        assert.deepEqual(verdicts(program, true), verdicts(program, false));
      }),
      { numRuns: 2000 },
    );
    assert.ok(pairedPrograms >= 100, `paired pages in ${pairedPrograms} of 2000 programs`);
  });
});
