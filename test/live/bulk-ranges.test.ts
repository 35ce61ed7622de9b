/**
 * Bulk methods' ranges (`Shadow.accessRange`, `src/live/shadow/goldilocks.ts`; issue 24 §2, thread-stream's ring
 * buffer): the whole pages of a bulk access are checked as a range check's run, the pages on one shared list decided
 * once, and recorded onto shared lists. Property: over random programs — three threads, an 80-page buffer (more than
 * one group of `BULK_PAGES`), bulk reads and writes of random byte ranges, element accesses, lock releases and
 * acquires, stopping at a race or not — every access gets the verdict (its first conflict: word, owner, site) that
 * the per-word form gives (every word its own list, each word checked by its own call); and the cases named below.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appendCell, STAT, type StateViews, Tag } from '../../src/live/memory/state.js';
import { Access, BULK_PAGES, type Conflict, packA, Shadow } from '../../src/live/shadow/goldilocks.js';
import { lockOf, SHARED_SLOT } from '../../src/live/shadow/table.js';
import { SyncKind } from '../../src/model/sync.js';
import { PerWord, random, shadowWorld } from '../helpers/shadow-world.js';

const THREADS = 3;
const PAGES = 80;
const BYTES = PAGES * 64;

/** A fresh world of THREADS threads over this file's buffer (`../helpers/shadow-world.ts`). */
const world = (make: (s: StateViews, t: number) => Shadow) => shadowWorld(THREADS, BYTES, make);

/** The bytes of word `w` that the byte range [off, end) touches. */
const maskOf = (w: number, off: number, end: number): number =>
  ((1 << Math.min(end - w * 8, 8)) - 1) & ~((1 << Math.max(off - w * 8, 0)) - 1);

/**
 * The bytes [off, off + size) accessed by `shadow` as the runtime's range check does it (`src/live/runtime.ts`
 * checkRange): `accessRange` on from the word after each stop, its first conflict kept; with `stop`, nothing after it.
 * @returns the first conflict, as `word:T<owner>@<site>`, or 'none'.
 */
function bulk(
  shadow: Shadow,
  base: number,
  off: number,
  size: number,
  flags: number,
  site: number,
  stop: boolean,
) {
  const end = off + size;
  const w0 = Math.floor(off / 8);
  const w1 = Math.ceil(end / 8);
  let first = 'none';
  for (let w = w0; w < w1; ) {
    w += shadow.accessRange(
      base + w,
      w1 - w,
      maskOf(w, off, end),
      maskOf(w1 - 1, off, end),
      flags,
      site,
      stop,
    );
    const c = shadow.lastConflict;
    if (c !== undefined) {
      if (first === 'none') first = `${w - 1}:T${c.owner}@${c.site}`;
      if (stop) break;
    }
  }
  return first;
}

/** {@link bulk} in the per-word form: each word by its own `access`. */
function perWord(
  shadow: Shadow,
  base: number,
  off: number,
  size: number,
  flags: number,
  site: number,
  stop: boolean,
) {
  const end = off + size;
  let first = 'none';
  for (let w = Math.floor(off / 8); w < Math.ceil(end / 8); w++) {
    const c = shadow.access(base + w, maskOf(w, off, end), flags, site, stop);
    if (c !== undefined) {
      if (first === 'none') first = `${w}:T${c.owner}@${c.site}`;
      if (stop) break;
    }
  }
  return first;
}

const verdict = (c: Conflict | undefined): string => (c === undefined ? 'none' : `T${c.owner}@${c.site}`);

/** Runs the random program of `seed` on both forms, asserting equal verdicts access by access. */
function compare(seed: number, ops: number): void {
  const r = random(seed);
  const pick = (n: number): number => Math.floor(r() * n);
  const a = world((s, t) => new Shadow(s, t));
  const b = world((s, t) => new PerWord(s, t));
  for (let i = 0; i < ops; i++) {
    const roll = r();
    const t = 1 + pick(THREADS);
    if (roll < 0.15) {
      // a synchronization: a release or an acquire of one of two locks, the same cell in both states
      const kind = r() < 0.5 ? SyncKind.Release : SyncKind.Acquire;
      const lock = packA(Tag.Named, 1 + pick(2));
      for (const w of [a, b]) w.checkers[t].pos = appendCell(w.s, kind, t, lock, 0) + 1;
      continue;
    }
    const flags = r() < 0.5 ? Access.WRITE : 0;
    const site = 10 + pick(3);
    const stop = r() < 0.6;
    if (roll < 0.3) {
      // an element access: one word, some or all of its bytes
      const word = pick(BYTES / 8);
      const mask = r() < 0.7 ? Access.MASK : 1 << pick(8);
      const got = verdict(a.checkers[t].access(a.base + word, mask, flags, site, stop));
      const want = verdict(b.checkers[t].access(b.base + word, mask, flags, site, stop));
      assert.equal(got, want, `seed ${seed}, op ${i}: T${t} ${flags ? 'writes' : 'reads'} word ${word}`);
      continue;
    }
    // a bulk access: whole pages (a ring's 1 KiB copies), any bytes, or a long range past one group of pages
    const shape = r();
    const off = shape < 0.4 ? 64 * pick(PAGES - 16) : pick(BYTES - 64);
    const size = Math.min(
      BYTES - off,
      shape < 0.4 ? 64 * (1 + pick(16)) : shape < 0.8 ? 1 + pick(1200) : 64 * BULK_PAGES + pick(1024),
    );
    const got = bulk(a.checkers[t], a.base, off, size, flags, site, stop);
    const want = perWord(b.checkers[t], b.base, off, size, flags, site, stop);
    assert.equal(
      got,
      want,
      `seed ${seed}, op ${i}: T${t} ${flags ? 'writes' : 'reads'} bytes ${off}+${size}`,
    );
  }
}

describe('bulk ranges', () => {
  test('every bulk and element access gets the per-word form’s verdict, over random programs', () => {
    for (let seed = 1; seed <= 120; seed++) compare(seed, 120);
  });

  test('a bulk write racing with an element read in the middle of a run: stopped there, the words before recorded', () => {
    const { s, base, checkers } = world((st, t) => new Shadow(st, t));
    const [, one, two] = checkers;
    assert.equal(bulk(one, base, 0, 64 * 40, Access.WRITE, 5, true), 'none'); // 40 pages on one shared list
    one.pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 1), 0) + 1;
    two.pos = appendCell(s, SyncKind.Acquire, 2, packA(Tag.Named, 1), 0) + 1;
    assert.equal(two.access(base + 8 * 20 + 3, 0x10, 0, 6, true), undefined); // ordered after the write
    // thread 1 writes all 40 pages again, unordered with thread 2's read of byte 4 of word 3 of page 20
    assert.equal(bulk(one, base, 0, 64 * 40, Access.WRITE, 7, true), `${8 * 20 + 3}:T2@6`);
    // the words before it were recorded (thread 2 now races with them), the words after it were not
    assert.equal(verdict(two.access(base + 8 * 19, 0x01, 0, 8, false)), 'T1@7');
    assert.equal(verdict(two.access(base + 8 * 20 + 2, 0x01, 0, 8, false)), 'T1@7');
    assert.equal(verdict(two.access(base + 8 * 20 + 4, 0x01, 0, 8, false)), 'none');
    assert.equal(verdict(two.access(base + 8 * 30, 0x01, 0, 8, false)), 'none');
  });

  test('a run whose pages differ in state: each page decided on its own list', () => {
    const { s, base, checkers } = world((st, t) => new Shadow(st, t));
    const [, one, two, three] = checkers;
    assert.equal(bulk(one, base, 0, 64 * 24, 0, 5, true), 'none'); // 24 pages read: one shared list
    one.pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 1), 0) + 1;
    two.pos = appendCell(s, SyncKind.Acquire, 2, packA(Tag.Named, 1), 0) + 1;
    assert.equal(bulk(two, base, 64 * 4, 64 * 4, 0, 6, true), 'none'); // pages 4–7: another list
    assert.equal(bulk(three, base, 64 * 12, 64, Access.WRITE, 7, false), `${8 * 12}:T1@5`); // page 12: races with 1's read
    const pageOf = (k: number): number => lockOf(base + 8 * k);
    assert.notEqual(s.heap[pageOf(3) + SHARED_SLOT], 0);
    assert.notEqual(s.heap[pageOf(4) + SHARED_SLOT], s.heap[pageOf(3) + SHARED_SLOT]);
    // thread 2 writes all 24 pages: its own read then ordered reads on pages 0–11, thread 3's write on page 12
    assert.equal(bulk(two, base, 0, 64 * 24, Access.WRITE, 8, false), `${8 * 12}:T3@7`);
    // every page got thread 2's write (not stopped): thread 1 races with it on each, at its site
    for (const k of [0, 5, 12, 13, 23])
      assert.equal(verdict(one.access(base + 8 * k + 7, 0x80, 0, 9, false)), 'T2@8', `page ${k}`);
  });

  test('a run straddling partial pages: only the bytes it touches are checked', () => {
    const { base, checkers } = world((st, t) => new Shadow(st, t));
    const [, one, two] = checkers;
    // thread 2 writes byte 2 of page 3 and byte 61 of page 10, unordered with thread 1
    assert.equal(two.access(base + 8 * 3, 0x04, Access.WRITE, 6, true), undefined);
    assert.equal(two.access(base + 8 * 10 + 7, 0x20, Access.WRITE, 6, true), undefined);
    // thread 1 reads from byte 3 of page 3 to byte 60 of page 10: no common byte
    assert.equal(bulk(one, base, 64 * 3 + 3, 64 * 7 + 58, 0, 5, true), 'none');
    // one byte more at either end races
    assert.equal(bulk(one, base, 64 * 3 + 2, 64 * 7 + 59, 0, 5, true), `${8 * 3}:T2@6`);
    assert.equal(bulk(one, base, 64 * 3 + 3, 64 * 7 + 59, 0, 5, true), `${8 * 10 + 7}:T2@6`);
  });

  test('a repeat of the same bulk access after a synchronization is checked again', () => {
    const { s, base, checkers } = world((st, t) => new Shadow(st, t));
    const [, one, two] = checkers;
    assert.equal(bulk(one, base, 0, 64 * 16, Access.WRITE, 5, true), 'none');
    assert.equal(bulk(one, base, 0, 64 * 16, Access.WRITE, 5, true), 'none'); // the same epoch: its own write
    one.pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 1), 0) + 1;
    // thread 2 writes one element of page 9 without acquiring the lock: a race with thread 1's write
    assert.equal(verdict(two.access(base + 8 * 9 + 4, Access.MASK, Access.WRITE, 6, false)), 'T1@5');

    // thread 1's same write, in its new epoch, meets thread 2's
    assert.equal(bulk(one, base, 0, 64 * 16, Access.WRITE, 5, true), `${8 * 9 + 4}:T2@6`);
  });

  test('pages of one shared list decided by a short-circuit are counted as each page’s check', () => {
    const { s, base, checkers } = world((st, t) => new Shadow(st, t));
    const [, one, two] = checkers;
    assert.equal(bulk(one, base, 0, 64 * 32, Access.WRITE, 5, true), 'none');
    one.pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 1), 0) + 1;
    two.pos = appendCell(s, SyncKind.Acquire, 2, packA(Tag.Named, 1), 0) + 1;
    const before = Array.from(two.counts);
    assert.equal(bulk(two, base, 0, 64 * 32, 0, 6, true), 'none');
    const added = (k: number): number => two.counts[k] - before[k];
    // 32 uniform pages, each with one conflicting Info: the first decided by a walk, the others by the memo
    assert.equal(added(STAT.accesses), 32);
    assert.equal(added(STAT.checks), 32);
    assert.equal(added(STAT.walks) + added(STAT.directTransfer), 1);
    assert.equal(added(STAT.hbMemo), 31);
  });
});
