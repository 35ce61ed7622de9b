/**
 * Pending pages (`src/live/shadow/pending.ts` `PendingPages.pendingState`, issue 24 §1 speed at size large): a thread's
 * first plain whole-word accesses of a uniform page in an epoch are kept beside the page's list instead of splitting
 * it. Property: over random programs — three threads, two pages, accesses in random word orders (whole words mostly,
 * some halves, some atomic, some runs over a page), lock releases and acquires between them, stopping at a race or
 * not — every access gets the verdict (conflict or none, its owner and site) that the per-word form gives, a checker
 * whose every word keeps its own list (no uniform page: `uniformPages` off). A thread's second pass over its own data
 * in a new epoch (the page's list holds its read of the last: renewed in place) is compared on the lists themselves;
 * so are reads of part of a word (the elements of a Uint8Array, Int16Array or Int32Array view, a main thread reading
 * what its workers wrote), whose words' lists after a split must be the per-word form's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appendCell, type StateViews, Tag } from '../../src/live/memory/state.js';
import { Access, type Conflict, Info, packA, Shadow } from '../../src/live/shadow/goldilocks.js';
import { siteAt } from '../../src/live/shadow/site-vectors.js';
import {
  headOf,
  isPending,
  isSplit,
  lockOf,
  MARK,
  SHARED_SLOT,
  UNIFORM,
} from '../../src/live/shadow/table.js';
import { SyncKind } from '../../src/model/sync.js';
import { PerWord, random, shadowWorld } from '../helpers/shadow-world.js';

const THREADS = 3;
const WORDS = 32; // four pages

/** A fresh world of THREADS threads over this file's buffer (`../helpers/shadow-world.ts`). */
const world = (make: (s: StateViews, t: number) => Shadow) => shadowWorld(THREADS, 4 * 64, make);

/** What a check answered, for comparison. */
const verdict = (c: Conflict | undefined): string => (c === undefined ? 'none' : `T${c.owner}@${c.site}`);

/** The random numbers of `seed` (`r`, and `pick(n)`: an integer below n) and two worlds: the pending form `a`, the per-word form `b`. */
function twoForms(seed: number) {
  const r = random(seed);
  const pick = (n: number): number => Math.floor(r() * n);
  return { r, pick, a: world((s, t) => new Shadow(s, t)), b: world((s, t) => new PerWord(s, t)) };
}

/**
 * Runs the random program of `seed` on both checkers, asserting equal verdicts access by access.
 * @returns how many accesses found the page they touched pending afterwards (the form exercised), or with
 * `counted` 'partial', how many accesses of part of a word did.
 */
function compare(seed: number, ops: number, counted?: 'partial'): number {
  const { r, pick, a, b } = twoForms(seed);
  let pending = 0;
  // a thread sweeps a page in a random order for a while, as moldyn's force loop does; or reads its elements (kind 5)
  let order: number[] = [];
  let masks: number[] = []; // kind 5: the byte mask of each element of `order`
  let sweeper = 1;
  /** One access on both checkers, its verdicts compared. */
  const both = (
    t: number,
    word: number,
    mask: number,
    flags: number,
    site: number,
    stop: boolean,
    at: string,
  ) => {
    const got = verdict(a.checkers[t].access(a.base + word, mask, flags, site, stop));
    const want = verdict(b.checkers[t].access(b.base + word, mask, flags, site, stop));
    const what = flags & Access.WRITE ? 'writes' : 'reads';
    assert.equal(got, want, `seed ${seed}, op ${at}: T${t} ${what} bytes ${mask} of word ${word}`);
  };
  /** A run over the page from word `first` (a bulk operation) on both checkers, its verdicts compared. */
  const run = (t: number, first: number, flags: number, site: number, stop: boolean, at: string) => {
    // as the runtime's range check does (src/live/runtime.ts): on from the word after each stop, its first
    // conflict reported
    const seen = [a, b].map((w) => {
      const shadow = w.checkers[t];
      let reported: Conflict | undefined;
      for (let x = first; x < first + 8; ) {
        x += shadow.accessRun(w.base + x, first + 8 - x, Access.MASK, Access.MASK, flags, site, stop);
        reported ??= shadow.lastConflict;
        if (shadow.lastConflict !== undefined && stop) break;
      }
      return verdict(reported);
    });
    assert.equal(seen[0], seen[1], `seed ${seed}, op ${at}: T${t} run over words ${first}–${first + 7}`);
  };
  /** Thread `t`'s synchronization `kind` on lock `lock`, the same cell in both states. */
  const sync = (t: number, kind: SyncKind, lock: number) => {
    for (const w of [a, b]) w.checkers[t].pos = appendCell(w.s, kind, t, lock, 0) + 1;
  };
  // of the sweep: 0 reads, 1 writes, 2 read-modify-writes, 3 any, 4 writes of the two halves of each word (Int32
  // pixels, raytracer's), at one site or two, 5 reads of the elements of a Uint8Array, Int16Array or Int32Array view
  // (`elements`), in order, in reverse or shuffled, some read again
  let kind = 0;
  let start = 0; // its page's first word
  for (let i = 0; i < ops; i++) {
    const roll = r();
    if (roll < 0.06) {
      // a synchronization: a release or an acquire of one of two locks
      const t = 1 + pick(THREADS);
      sync(t, r() < 0.5 ? SyncKind.Release : SyncKind.Acquire, packA(Tag.Named, 1 + pick(2)));
      continue;
    }
    if (order.length === 0 || r() < 0.05) {
      sweeper = 1 + pick(THREADS);
      kind = counted !== undefined && r() < 0.5 ? 5 : pick(6);
      start = 8 * pick(WORDS / 8);
      if (kind === 5) {
        [order, masks] = elements(start, r);
        if (counted !== undefined) {
          // the page written whole by a thread first (uniform), then, mostly, handed over to the reader
          const writer = 1 + pick(THREADS);
          run(writer, start, Access.WRITE, 9, false, `${i}, written`);
          if (r() < 0.7) {
            sync(writer, SyncKind.Release, packA(Tag.Named, 1));
            sync(sweeper, SyncKind.Acquire, packA(Tag.Named, 1));
          }
        }
      } else order = Array.from({ length: 8 }, (_, k) => start + k).sort(() => r() - 0.5);
    }
    const t = r() < 0.85 ? sweeper : 1 + pick(THREADS);
    const next = order.length > 0 && r() < 0.9;
    const word = next ? (order.pop() as number) : pick(WORDS);
    const m = r();
    const mask =
      kind === 5 && next ? (masks.pop() as number) : m < 0.85 ? Access.MASK : m < 0.93 ? 0x0f : 0xf0;
    const swept = t === sweeper && word >> 3 === start >> 3 && (kind < 3 || kind === 5);
    const flags =
      ((swept ? kind === 1 || (kind === 5 && r() < 0.03) : r() < 0.5) ? Access.WRITE : 0) |
      (r() < 0.03 ? Access.ATOMIC : 0);
    const site = 10 + pick(4);
    const stop = r() < 0.7;
    if (roll < 0.1) {
      run(t, word & ~7, flags & Access.WRITE, site, stop, `${i}`); // a bulk operation
      continue;
    }
    if (kind === 4 && t === sweeper && word >> 3 === start >> 3) {
      const low = r() < 0.5;
      both(t, word, low ? 0x0f : 0xf0, Access.WRITE, site, stop, `${i}`);
      both(t, word, low ? 0xf0 : 0x0f, Access.WRITE, r() < 0.7 ? site : 10 + pick(4), stop, `${i}'`);
    } else both(t, word, mask, flags, site, stop, `${i}`);
    if (flags === 0 && (swept ? kind === 2 || (kind === 5 && r() < 0.03) : r() < 0.3))
      both(t, word, mask, Access.WRITE, site + 1, stop, `${i}, then`); // a read-modify-write (moldyn's `acc[j] -= f`)
    const mark = a.s.heap[lockOf(a.base + word) + MARK];
    if (mark < UNIFORM && isPending(a.s.heap, mark) && (counted === undefined || mask !== Access.MASK))
      pending++;
  }
  return pending;
}

/**
 * The elements of a page from word `start` read through a Uint8Array, Int16Array or Int32Array view (`r` picks
 * which): in order, in reverse or shuffled, a few read again, listed last first (for `pop`).
 * @returns their words and their byte masks.
 */
function elements(start: number, r: () => number): [number[], number[]] {
  const size = [1, 2, 4][Math.floor(r() * 3)];
  const all: [number, number][] = [];
  for (let k = 0; k < 8; k++) for (let b = 0; b < 8; b += size) all.push([start + k, ((1 << size) - 1) << b]);
  const how = r();
  if (how < 0.2) all.reverse();
  else if (how < 0.5) all.sort(() => r() - 0.5);
  for (let i = 1; i < all.length; i++) if (r() < 0.04) all.splice(i, 0, all[Math.floor(r() * i)]); // a re-read
  all.reverse();
  return [all.map(([w]) => w), all.map(([, m]) => m)];
}

describe('pending pages', () => {
  test('every access gets the per-word form’s verdict, over random programs', () => {
    let pending = 0;
    for (let seed = 1; seed <= 300; seed++) pending += compare(seed, 400);
    assert.ok(pending > 1000, `pages were pending after ${pending} accesses`);
  });

  test('reads of part of a word (elements of Uint8/Int16/Int32 views) get the per-word form’s verdicts', () => {
    let partial = 0;
    for (let seed = 301; seed <= 500; seed++) partial += compare(seed, 400, 'partial');
    assert.ok(partial > 1000, `pages were pending after ${partial} accesses of part of a word`);
  });

  test('a fresh page written a half word at a time (Int32 pixels) is one Info, never split', () => {
    const { s, base, checkers } = world((st, t) => new Shadow(st, t));
    for (let half = 0; half < 16; half++) {
      assert.equal(
        checkers[1].access(base + (half >> 1), half & 1 ? 0xf0 : 0x0f, Access.WRITE, 5, true),
        undefined,
      );
      const mark = s.heap[lockOf(base) + MARK];
      if (half < 15) assert.ok(mark < UNIFORM && isPending(s.heap, mark), `pending after half ${half}`);
    }
    assert.equal(s.heap[lockOf(base) + MARK], UNIFORM);
    const e = s.heap[lockOf(base) + 1];
    assert.equal(s.heap[e + Info.NEXT], 0, 'one Info');
    assert.equal(s.heap[e + Info.FLAGS], Access.MASK | Access.WRITE);
    assert.equal(new Shadow(s, 2).access(base + 6, 0x80, 0, 20, true)?.site, 5);
  });

  test('a page a thread reads, then writes, word by word in any order is one list again, that write', () => {
    const { s, base, checkers } = world((st, t) => new Shadow(st, t));
    const one = checkers[1];
    for (let k = 0; k < 8; k++) one.access(base + k, Access.MASK, Access.WRITE, 5, true); // uniform: one write
    one.pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 1), 0) + 1;
    const order = [5, 2, 7, 0, 3, 6, 1, 4];
    for (const k of order) {
      assert.equal(one.access(base + k, Access.MASK, 0, 6, true), undefined);
      assert.equal(one.access(base + k, Access.MASK, Access.WRITE, 7 + (k % 3), true), undefined);
      if (k !== 4) assert.ok(isPending(s.heap, s.heap[lockOf(base) + MARK]), `pending after word ${k}`);
    }
    assert.equal(s.heap[lockOf(base) + MARK], UNIFORM);
    // another thread, unordered, races with the write of the word it reads, reported at that word's site
    const c = new Shadow(s, 2).access(base + 4, 0x01, 0, 20, true);
    assert.equal(c?.owner, 1);
    assert.equal(c?.site, 7 + (4 % 3));
  });
});

/**
 * One access `(t, word, mask, flags, site)` on both worlds, `a` (the pending form) and `b` (the per-word form),
 * stopping on a race or not as `r` draws (`at` names it in messages): the verdicts compared, and the lists of the 8
 * words of its page whenever `a` keeps them ({@link listOf}: the page not pending).
 */
function bothForms(a: ReturnType<typeof world>, b: ReturnType<typeof world>, seed: number, r: () => number) {
  return (t: number, word: number, mask: number, flags: number, site: number, at: string): void => {
    const stop = r() < 0.5;
    const got = verdict(a.checkers[t].access(a.base + word, mask, flags, site, stop));
    const want = verdict(b.checkers[t].access(b.base + word, mask, flags, site, stop));
    const what = `seed ${seed}, ${at}: T${t} ${flags & Access.WRITE ? 'writes' : 'reads'} bytes ${mask} of word ${word}`;
    assert.equal(got, want, what);
    for (let k = word & ~7; k < (word & ~7) + 8; k++) {
      const mine = listOf(a, k);
      if (mine !== undefined) assert.deepEqual(mine, listOf(b, k), `${what}: the list of word ${k}`);
    }
  };
}

/**
 * The list word `word` of world `w` stands for, an Info a string (every word but `NEXT`, its site on the word:
 * `siteAt`), or undefined while its page is neither uniform nor split (pending, patterned, paired: not compared).
 */
function listOf(w: { s: StateViews; base: number }, word: number): string[] | undefined {
  const heap = w.s.heap;
  const page = lockOf(w.base + word);
  const mark = heap[page + MARK];
  if (mark !== UNIFORM && !isSplit(heap, page)) return undefined;
  const head = mark === UNIFORM ? page + 1 : headOf(heap, w.base + word);
  const list: string[] = [];
  for (let e = head === 0 ? 0 : heap[head]; e !== 0; e = heap[e + Info.NEXT])
    list.push(
      [Info.FLAGS, Info.OWNER, Info.POS, Info.ALOCK_A, Info.ALOCK_B, Info.LS]
        .map((f) => heap[e + f])
        .concat(siteAt(heap, e, word & 7))
        .join('/'),
    );
  return list;
}

/**
 * Runs the re-read program of `seed` on both forms (as {@link compare}): one thread after another makes passes over
 * a page, each after a synchronization of its own (holding a sync-library lock or not), reading every word once in a random order (a whole word mostly,
 * half of it or atomically in some passes), and mid-pass, now
 * and then, another thread's access (a read or a write, of a whole word or half of one), the reader's write after its
 * read (`a[j] += …`), its atomic access, its read of half a word, a run over the page; the verdicts compared access by
 * access, and the lists of the page's 8 words whenever the page is not pending.
 * @returns how many reads of a pass found the page pending afterwards while its list held the reader's read of an
 * earlier epoch (the form exercised).
 */
function compareRereads(seed: number, passes: number): number {
  const { r, pick, a, b } = twoForms(seed);
  let rereads = 0;
  const both = bothForms(a, b, seed, r);
  const sync = (t: number) => {
    const kind = r() < 0.5 ? SyncKind.Release : SyncKind.Acquire;
    const lock = packA(Tag.Named, 1 + pick(2));
    // the sync-library lock the thread holds from now on, if any (the alock of its accesses)
    const alock = pick(3);
    for (const w of [a, b]) {
      const shadow = w.checkers[t];
      shadow.pos = appendCell(w.s, kind, t, lock, 0) + 1;
      shadow.held.length = 0;
      if (alock !== 0) shadow.held.push(packA(Tag.Named, 2 + alock), 0);
    }
  };
  let reader = 1;
  for (let p = 0; p < passes; p++) {
    if (r() < 0.2) reader = 1 + pick(THREADS);
    sync(reader);
    const start = 8 * pick(2); // two pages
    const order = Array.from({ length: 8 }, (_, k) => start + k).sort(() => r() - 0.5);
    const site = 10 + pick(3);
    // of the pass: reads of whole words mostly, some of half words (Int32 elements), some atomic
    const kind = r();
    const mask = kind < 0.9 ? Access.MASK : kind < 0.95 ? 0x0f : Access.MASK;
    const flags = kind < 0.95 ? 0 : Access.ATOMIC;
    for (let i = 0; i < 8; i++) {
      const word = order[i];
      const at = `pass ${p}, word ${i}`;
      both(reader, word, mask, flags, r() < 0.8 ? site : 10 + pick(3), at);
      const heap = a.s.heap;
      const page = lockOf(a.base + word);
      const mark = heap[page + MARK];
      if (mark < UNIFORM && isPending(heap, mark)) {
        let earlier = false;
        for (let e = heap[page + 1]; e !== 0; e = heap[e + Info.NEXT])
          earlier ||=
            heap[e + Info.OWNER] === reader &&
            heap[e + Info.FLAGS] === Access.MASK &&
            heap[e + Info.POS] !== a.checkers[reader].pos;
        if (earlier) rereads++;
      }
      const roll = r();
      if (roll < 0.03) {
        const other = 1 + ((reader + pick(THREADS - 1)) % THREADS);
        const m = r();
        both(
          other,
          start + pick(8),
          m < 0.6 ? Access.MASK : m < 0.8 ? 0x0f : 0xf0,
          r() < 0.5 ? Access.WRITE : 0,
          20,
          `${at}, another thread`,
        );
      } else if (roll < 0.06) both(reader, word, Access.MASK, Access.WRITE, 21, `${at}, then a write`);
      else if (roll < 0.08)
        both(
          reader,
          start + pick(8),
          Access.MASK,
          Access.ATOMIC | (r() < 0.5 ? Access.WRITE : 0),
          22,
          `${at}, an atomic`,
        );
      else if (roll < 0.1)
        both(reader, start + pick(8), r() < 0.5 ? 0x0f : 0xf0, 0, 23, `${at}, a partial read`);
      else if (roll < 0.11) {
        const seen = [a, b].map((w) => {
          const shadow = w.checkers[reader];
          let reported: Conflict | undefined;
          for (let x = start; x < start + 8; ) {
            x += shadow.accessRun(w.base + x, start + 8 - x, Access.MASK, Access.MASK, 0, 24, false);
            reported ??= shadow.lastConflict;
          }
          return verdict(reported);
        });
        assert.equal(
          seen[0],
          seen[1],
          `seed ${seed}, ${at}: T${reader} run over words ${start}–${start + 7}`,
        );
      }
    }
  }
  return rereads;
}

describe('pending pages: a thread’s second pass over its own data', () => {
  test('every access gets the per-word form’s verdict, every list the per-word form’s, over random passes', () => {
    let rereads = 0;
    for (let seed = 1; seed <= 200; seed++) rereads += compareRereads(seed, 30);
    assert.ok(rereads > 1000, `pages were pending on a re-read after ${rereads} reads`);
  });

  test('a page read again after a synchronization is one list again, its read renewed in place, never split', () => {
    const { s, base, checkers } = world((st, t) => new Shadow(st, t));
    for (let k = 0; k < 8; k++) checkers[1].access(base + k, Access.MASK, Access.WRITE, 5, true); // uniform: T1's write
    checkers[1].pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 1), 0) + 1;
    const two = checkers[2];
    two.pos = appendCell(s, SyncKind.Acquire, 2, packA(Tag.Named, 1), 0) + 1;
    for (let k = 0; k < 8; k++) two.access(base + k, Access.MASK, 0, 6, true); // T2's read in front
    const page = lockOf(base);
    const read = s.heap[page + 1];
    two.pos = appendCell(s, SyncKind.Release, 2, packA(Tag.Named, 1), 0) + 1;
    const order = [3, 6, 0, 7, 2, 5, 1, 4];
    for (const k of order) {
      assert.equal(two.access(base + k, Access.MASK, 0, 7 + (k % 3), true), undefined);
      if (k !== 4) assert.ok(isPending(s.heap, s.heap[page + MARK]), `pending after word ${k}`);
    }
    assert.equal(s.heap[page + MARK], UNIFORM);
    const e = s.heap[page + 1];
    assert.equal(s.heap[e + Info.OWNER], 2, 'T2 read first');
    assert.equal(s.heap[e + Info.POS], two.pos, 'renewed');
    assert.equal(s.heap[s.heap[e + Info.NEXT] + Info.OWNER], 1, 'then T1 write');
    assert.equal(s.heap[s.heap[e + Info.NEXT] + Info.NEXT], 0, 'two Infos');
    assert.equal(e === read || s.heap[page + SHARED_SLOT] !== 0, true, 'the same Info, or a shared copy');
    // another thread, unordered with T2's second pass, races with the read of the word it writes, at that read's site
    const c = checkers[3].access(base + 5, 0x01, Access.WRITE, 20, true);
    assert.equal(c?.owner, 2);
    assert.equal(c?.site, 7 + (5 % 3));
  });
});

/**
 * Runs the element-read program of `seed` on both forms (as {@link compareRereads}): in each round a thread writes a
 * page whole (or leaves it as the last round did), hands it over to a reader through a lock or not, and the reader
 * reads its elements through a Uint8Array, Int16Array or Int32Array view (`elements`: in order, in reverse or
 * shuffled, a few read again), at one site mostly, holding a sync-library lock or not, sometimes after an atomic read
 * of its own; mid-page, now and then, another thread's access, the reader's write of the element or of its word, its
 * atomic access, its read of another element size, a synchronization of its own, a run over the page. The verdicts
 * are compared access by access, and the lists of the page's 8 words whenever the page is not pending: a partly read
 * word's list after the split is the per-word form's.
 * @returns how many reads of part of a word found the page pending afterwards (the form exercised).
 */
function compareElements(seed: number, rounds: number): number {
  const { r, pick, a, b } = twoForms(seed);
  let partial = 0;
  const both = bothForms(a, b, seed, r);
  const run = (t: number, start: number, flags: number, site: number) => {
    for (const w of [a, b])
      for (let x = start; x < start + 8; )
        x += w.checkers[t].accessRun(w.base + x, start + 8 - x, Access.MASK, Access.MASK, flags, site, false);
  };
  const sync = (t: number, kind: SyncKind, lock: number) => {
    for (const w of [a, b]) w.checkers[t].pos = appendCell(w.s, kind, t, lock, 0) + 1;
  };
  for (let round = 0; round < rounds; round++) {
    const start = 8 * pick(2); // two pages
    const writer = 1 + pick(THREADS);
    const reader = r() < 0.8 ? 1 + ((writer + pick(THREADS - 1)) % THREADS) : writer;
    if (r() < 0.8) run(writer, start, Access.WRITE, 5);
    if (r() < 0.8) {
      sync(writer, SyncKind.Release, packA(Tag.Named, 1));
      sync(reader, SyncKind.Acquire, packA(Tag.Named, 1));
    }
    const alock = pick(3); // the sync-library lock the reader holds, if any (the alock of its accesses)
    for (const w of [a, b]) {
      const held = w.checkers[reader].held;
      held.length = 0;
      if (alock !== 0) held.push(packA(Tag.Named, 2 + alock), 0);
    }
    if (r() < 0.1)
      both(reader, start + pick(8), 0x0f, Access.ATOMIC, 6, `round ${round}, an atomic read first`);
    const [order, masks] = elements(start, r);
    const site = 30 + pick(2);
    for (let i = 0; order.length > 0; i++) {
      const word = order.pop() as number;
      const mask = masks.pop() as number;
      const at = `round ${round}, element ${i}`;
      both(reader, word, mask, 0, r() < 0.9 ? site : 30 + pick(3), at);
      const mark = a.s.heap[lockOf(a.base + word) + MARK];
      if (mark < UNIFORM && isPending(a.s.heap, mark)) partial++;
      const roll = r();
      const m = r();
      const any = m < 0.5 ? Access.MASK : m < 0.7 ? 0x0f : m < 0.85 ? 0xf0 : 1 << pick(8);
      if (roll < 0.02) {
        const other = 1 + ((reader + pick(THREADS - 1)) % THREADS);
        both(other, start + pick(8), any, r() < 0.5 ? Access.WRITE : 0, 20, `${at}, another thread`);
      } else if (roll < 0.03)
        both(reader, word, r() < 0.5 ? mask : Access.MASK, Access.WRITE, 21, `${at}, a write`);
      else if (roll < 0.04)
        both(
          reader,
          start + pick(8),
          0x0f,
          Access.ATOMIC | (r() < 0.5 ? Access.WRITE : 0),
          22,
          `${at}, an atomic`,
        );
      else if (roll < 0.05) both(reader, start + pick(8), any, 0, site, `${at}, a read of another size`);
      else if (roll < 0.055) sync(reader, SyncKind.Release, packA(Tag.Named, 2));
      else if (roll < 0.06) run(reader, start, 0, 24);
    }
  }
  return partial;
}

describe('pending pages: reads of part of a word', () => {
  test('every access gets the per-word form’s verdict, every list the per-word form’s, over element reads', () => {
    let partial = 0;
    for (let seed = 1; seed <= 150; seed++) partial += compareElements(seed, 12);
    assert.ok(partial > 3000, `pages were pending after ${partial} reads of part of a word`);
  });

  test('a page written by a worker and read a byte at a time by another thread is one list again, never split', () => {
    const { s, base, checkers } = world((st, t) => new Shadow(st, t));
    for (let k = 0; k < 8; k++) checkers[1].access(base + k, Access.MASK, Access.WRITE, 5, true); // uniform: T1's write
    checkers[1].pos = appendCell(s, SyncKind.Release, 1, packA(Tag.Named, 1), 0) + 1;
    const two = checkers[2];
    two.pos = appendCell(s, SyncKind.Acquire, 2, packA(Tag.Named, 1), 0) + 1;
    const page = lockOf(base);
    for (let byte = 0; byte < 64; byte++) {
      assert.equal(two.access(base + (byte >> 3), 1 << (byte & 7), 0, 6 + (byte >> 3), true), undefined);
      if (byte < 63) assert.equal(isPending(s.heap, s.heap[page + MARK]), true, `pending after byte ${byte}`);
    }
    assert.equal(s.heap[page + MARK], UNIFORM);
    const e = s.heap[page + 1];
    assert.equal(s.heap[e + Info.OWNER], 2, 'T2 read first');
    assert.equal(s.heap[e + Info.FLAGS], Access.MASK, 'of every byte');
    assert.equal(s.heap[s.heap[e + Info.NEXT] + Info.OWNER], 1, 'then T1 write');
    assert.equal(s.heap[s.heap[e + Info.NEXT] + Info.NEXT], 0, 'two Infos');
    // another thread, unordered with T2's reads, races with the read of the word it writes, at that word's site
    const c = checkers[3].access(base + 5, 0x10, Access.WRITE, 20, true);
    assert.equal(c?.owner, 2);
    assert.equal(c?.site, 6 + 5);
  });
});
