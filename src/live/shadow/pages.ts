/**
 * The page machinery of the live shadow (`./goldilocks.ts`), under the word table of `./table.ts`: how a 64-byte
 * page's 8 words keep their lists of Info records (`./records.ts`) — split, one list per word (a heads record for
 * words 1–7), or kept as one list for all 8: uniform ({@link Pages.uniform}), shared with other pages
 * ({@link Pages.shareList}), patterned ({@link Pages.pattern}) or by site vectors (`./site-vectors.ts`) — and the
 * moves between these forms: {@link Pages.splitPage}, {@link Pages.merge}; the pending form is `./pending.ts`'. Issue
 * 24 §1 (memory); adaptive
 * granularity as FastTrack's coarse array shadows (PLDI'09 §5). Every method is called with the page's check lock
 * held. The checks themselves are `Shadow` of `./goldilocks.ts`, which extends this class (through `./pending.ts`).
 */
import { retainLockset } from '../memory/locksets.js';
import { InfoPool } from './info-pool.js';
import { Info, Pair, Shared, sameList } from './records.js';
import { SiteVectors, siteAt } from './site-vectors.js';
import { headOf, isRecordMark, isSplit, lockOf, MARK, PAIRED, SHARED_SLOT, UNIFORM } from './table.js';

/** The word of a positions record (`./table.ts`, `Pages.pattern`) that counts its references. */
const POSITIONS_REFS = 0;
/** Bits of the hash of a patterned page's positions that pick its class (`Pages.pattern`). */
const POSITION_CLASS_BITS = 13;
/** Positions records a thread offers at once, one per class. */
const POSITION_CLASSES = 1 << POSITION_CLASS_BITS;
/**
 * The word of a heads record (`./table.ts`; words 1–7 hold the heads) that holds hints, never read for a check: in
 * bits 0–2, the word (1–7) whose list failed the page's last merge attempt (`Pages.merge`), 0 = none yet; from bit
 * {@link PAIR_HINT_SHIFT} on, the word (2–7) whose list failed its last pairing test (`Pages.pairable`), 0 = none.
 */
const MERGE_HINT = 0;
/** Where {@link MERGE_HINT} keeps the word that failed the last pairing test. */
const PAIR_HINT_SHIFT = 3;
/** Shared lists a thread offers at once (`Pages.shareList`): a power of 2. */
const CANDIDATES = 8;
/** Pair headers a thread offers at once (`Pages.pair`): a power of 2. */
const PAIR_CANDIDATES = 8;

/** How two lists differ ({@link listDiff}): bits. */
// biome-ignore lint/suspicious/noConstEnum: as `Info` of `./records.ts`
const enum Diff {
  NONE = 0,
  /** In some records' sites. */
  SITE = 1,
  /** In the last records' `pos`. */
  LAST_POS = 2,
  /** Otherwise: another word of a record, or the lists' lengths. */
  OTHER = 4,
}

/**
 * How the lists from Infos `a` and `b` differ, record by record in order (every word but `NEXT`): {@link Diff}
 * bits, {@link Diff.OTHER} alone as soon as found. One pass for the three merges of {@link Pages.merge}: equal lists
 * (uniform), lists equal but for sites (site vectors), lists equal but for the last records' `pos` (patterned).
 */
function listDiff(heap: Int32Array, a: number, b: number): number {
  let diff = Diff.NONE;
  for (; a !== 0 && b !== 0; a = heap[a + Info.NEXT], b = heap[b + Info.NEXT]) {
    const last = heap[a + Info.NEXT] === 0;
    for (let f = 1; f < Info.SIZE; f++)
      if (heap[a + f] !== heap[b + f]) {
        if (f === Info.SITE) diff |= Diff.SITE;
        else if (f === Info.POS && last) diff |= Diff.LAST_POS;
        else return Diff.OTHER;
      }
  }
  return a === b ? diff : Diff.OTHER;
}

/**
 * Zeroes the Info-sized record at heap index `r`, word by word: `TypedArray.prototype.fill` is a C++ builtin in V8
 * (`builtins-typed-array.cc`), entered through an exit frame, too dear for 8 words on a page's split and merge.
 */
function zeroRecord(heap: Int32Array, r: number): void {
  for (let f = 0; f < Info.SIZE; f++) heap[r + f] = 0;
}

/** The last Info of the list from Info `e` (not 0). */
function lastInfo(heap: Int32Array, e: number): number {
  let last = e;
  for (let n = heap[last + Info.NEXT]; n !== 0; n = heap[last + Info.NEXT]) last = n;
  return last;
}

/**
 * One thread's page machinery over the shared state (see the file header): the Info allocation of
 * {@link InfoPool}, the forms of a page's lists and the moves between them.
 */
export class Pages extends InfoPool {
  /**
   * Set when the run is recorded (`../record.ts`) or jumbled (`../locked.ts`): called by `Shadow.access` for every
   * checked word, under the word's check lock, with the word, `mask | flags` and the site — also for a racing access
   * that `stopOnRace` keeps from happening (`Shadow.lastConflict` is already set then).
   */
  onAccess: ((word: number, bits: number, site: number) => void) | undefined = undefined;

  /**
   * **Uniform pages** (adaptive granularity, as FastTrack's coarse array shadows, PLDI'09 §5): while every access
   * to a page covers all its 64 bytes, its 8 words have the same history, kept once: the list of its first word,
   * with the marker UNIFORM in its page slot (`./table.ts`). Any other access splits it first (each Info copied to
   * the other 7 words, {@link splitPage}), unless it leaves the list as it is (`Shadow.unchanged`); once the 8 lists are
   * equal again the page is merged back ({@link merge}). Off while the run is recorded (a record per word) and for Eraser (its own records).
   * @returns whether page `page` is uniform now (an empty page becomes uniform). Page lock held.
   */
  protected uniform(heap: Int32Array, page: number): boolean {
    if (!this.pagesKeptWhole()) return false;
    const mark = heap[page + MARK];
    if (mark === UNIFORM) return true;
    if (heap[page + 1] !== 0 || mark < UNIFORM) return false;
    if (mark > 0) for (let k = 1; k < 8; k++) if (heap[mark + k] !== 0) return false;
    heap[page + MARK] = UNIFORM;
    if (mark > 0) this.releaseRecord(mark);
    return true;
  }

  /** Uniform pages are used (see {@link uniform}), unless the run is recorded. */
  protected uniformPages = true;

  private pagesKeptWhole(): boolean {
    return this.uniformPages && this.onAccess === undefined;
  }

  /**
   * A uniform page becomes 8 words with their own lists: copies of the first word's Infos, in order; a patterned page
   * ({@link pattern}) too, each copy's last Info with its word's `pos`; a paired page ({@link pair}), each word a copy
   * of its class's list. Lock held.
   */
  splitPage(page: number): void {
    const heap = this.s.heap;
    if (isSplit(heap, page)) return;
    if (heap[page + MARK] === PAIRED) {
      this.unpair(heap, page);
      return;
    }
    if (isRecordMark(heap[page + MARK])) {
      this.expand(heap, page);
      return;
    }
    if (heap[page + SHARED_SLOT] !== 0) this.ownList(page);
    const infos = this.infosOf(heap[page + 1]);
    const r = infos.length === 0 ? 0 : this.newRecord();
    heap[page + MARK] = r;
    if (r !== 0) for (let k = 1; k < 8; k++) this.copyTo(r + k, k, infos, -1);
    for (const e of infos) heap[e + Info.SITE] = siteAt(heap, e, 0); // its own, as the copies took theirs
  }

  /**
   * A heads record (`./table.ts`) for a page to be split: an Info-sized record of the pool, zeroed (no word has a
   * list yet), to be linked by one store to the page's `MARK`.
   */
  protected newRecord(): number {
    const r = this.takeInfo();
    zeroRecord(this.s.heap, r);
    return r;
  }

  /** Frees a heads or positions record `r` that no page links any more (its words zeroed: none is an Info's). */
  protected releaseRecord(r: number): void {
    zeroRecord(this.s.heap, r);
    this.release(r);
  }

  /**
   * The heap index of the head of word `word`'s list ({@link headOf}), for the list to be written: its page's
   * heads record is made first if it has none (the page split, its words 1–7 empty). Lock held.
   */
  protected headFor(word: number): number {
    const heap = this.s.heap;
    const head = headOf(heap, word);
    if (head !== 0) return head;
    const r = this.newRecord();
    heap[lockOf(word) + MARK] = r;
    return r + (word & 7);
  }

  /**
   * The Infos of the list from Info `e`, in order, in an array reused by the next call (a page's split, moldyn: one
   * array per split was garbage).
   */
  private infosOf(first: number): number[] {
    let heap = this.s.heap;
    const infos = this.splitInfos;
    infos.length = 0;
    for (let e = first; e !== 0; e = heap[e + Info.NEXT]) {
      if (e + Info.SIZE > heap.length) {
        this.s.refresh();
        heap = this.s.heap;
      }
      infos.push(e);
    }
    return infos;
  }

  /** {@link infosOf}' array. */
  private readonly splitInfos: number[] = [];

  /**
   * Links copies of the Infos `infos`, in order, as the list of the word whose head is at heap index `head` (empty),
   * word `k` (1–7) of its page; the last copy's `pos` is `pos` unless negative; each copy's site is the word's
   * ({@link siteAt}). Each copy is filled before the store that links it.
   */
  private copyTo(head: number, k: number, infos: number[], pos: number): void {
    let heap = this.s.heap;
    let tail = head - Info.NEXT; // heap[tail + NEXT] is the word's head
    for (let i = 0; i < infos.length; i++) {
      const e = infos[i];
      const c = this.takeInfo();
      heap = this.s.heap; // takeInfo may have grown it
      for (let f = 1; f < Info.SIZE; f++) heap[c + f] = heap[e + f];
      if (heap[c + Info.LS] !== 0) retainLockset(this.s, heap[c + Info.LS]);
      if (pos >= 0 && i === infos.length - 1) heap[c + Info.POS] = pos;
      heap[c + Info.SITE] = siteAt(heap, e, k);
      heap[c + Info.NEXT] = 0;
      heap[tail + Info.NEXT] = c;
      tail = c;
    }
  }

  /**
   * A patterned page ({@link pattern}) becomes 8 words with their own lists: a new heads record replaces the
   * positions record in one store, then the copies are linked: a thread stopped in between leaves words without a
   * list (their history lost, as a stopped {@link splitPage} leaves them: a missed race, never a false alarm), or
   * the page's reference on the positions record not dropped (a leak). Lock held.
   */
  private expand(heap: Int32Array, page: number): void {
    const pos = this.patternPos;
    const positions = -heap[page + MARK];
    for (let w = 1; w < 8; w++) pos[w] = heap[positions + w] - 1;
    const r = this.newRecord();
    heap[page + MARK] = r;
    this.dropPositions(positions);
    const infos = this.infosOf(heap[page + 1]);
    for (let w = 1; w < 8; w++) if (pos[w] >= 0) this.copyTo(r + w, w, infos, pos[w]);
  }

  /**
   * A paired page ({@link pair}) becomes 8 words with their own lists, copies of its pair header's: the heads record
   * and the first word's copy are made, then linked — the first word's head (unused while the page is paired), the
   * header's slot cleared (the page's words then have no list), the record — and the page's reference on the header
   * dropped: a thread stopped in between leaves words without a list (their history lost, as a stopped
   * {@link splitPage} leaves them: a missed race, never a false alarm) or a count too high (a leak). Lock held.
   */
  private unpair(heap: Int32Array, page: number): void {
    const h = heap[page + SHARED_SLOT];
    const r = this.newRecord();
    let infos = this.infosOf(heap[h + Pair.EVEN]);
    for (let k = 0; k < 8; k += 2) this.copyTo(r + k, k, infos, -1); // word 0's in the record's hint word, for now
    infos = this.infosOf(heap[h + Pair.ODD]);
    for (let k = 1; k < 8; k += 2) this.copyTo(r + k, k, infos, -1);
    heap[page + 1] = heap[r];
    heap[r] = 0;
    heap[page + SHARED_SLOT] = 0;
    heap[page + MARK] = r;
    this.dropPair(h, 1);
  }

  /**
   * Page `page` (paired, its lock held) gets a pair header of its own, with copies of its header's two lists, to be
   * recorded on in place (`Shadow.accessRuns`: {@link headOf} of its words, and so `Shadow.record`, reach the new
   * header's lists): the header is filled, then linked by one store; the page's reference on its old header is
   * left to the caller to drop. @returns the new header.
   */
  protected ownPair(page: number): number {
    const heap = this.s.heap;
    const h = heap[page + SHARED_SLOT];
    const own = this.newRecord();
    heap[own + Pair.REFS] = 1;
    this.copyTo(own + Pair.EVEN, 0, this.infosOf(heap[h + Pair.EVEN]), -1);
    this.copyTo(own + Pair.ODD, 1, this.infosOf(heap[h + Pair.ODD]), -1);
    heap[page + SHARED_SLOT] = own;
    return own;
  }

  /** Drops `n` references on the pair header `h` ({@link pair}); frees it and its two lists at 0. */
  protected dropPair(h: number, n: number): void {
    if (this.addCount(h + Pair.REFS, -n) !== 0) return;
    const heap = this.s.heap;
    this.releaseList(heap[h + Pair.EVEN]);
    this.releaseList(heap[h + Pair.ODD]);
    this.releaseRecord(h);
  }

  /** The positions {@link expand} reads and {@link pattern} writes (words 1–7). */
  private readonly patternPos = new Int32Array(8);

  /**
   * The positions records this thread offers the pages it makes patterned next (one reference held on each), or 0:
   * the last one it made per class of positions (their hash, {@link pattern}): lufact's solve reads the matrix a
   * column at a time, each column's pages written at other steps and by another owner, so the records of one
   * column's pages come back a column later. A thread that ends keeps them: at most POSITION_CLASSES records per
   * thread never freed.
   */
  private readonly positionsCandidates = new Int32Array(POSITION_CLASSES);

  /** Drops a reference on the positions record `r` (a page's, or the candidate's); frees it at 0. */
  private dropPositions(r: number): void {
    if (this.addCount(r + POSITIONS_REFS, -1) === 0) this.releaseRecord(r);
  }

  /**
   * **Patterned pages** (issue 24 §1, memory): a page whose 8 words' lists are equal but for the `pos` of their last
   * (oldest) Info — lufact's upper triangle: each element of a column last written by its owner in another step
   * (between other barriers), then read by the main thread's solve — keeps the first word's list for all 8 and each
   * other word's `pos` + 1 in a positions record (`./table.ts`: `MARK` holds its index negated): one list per page
   * instead of eight. Every access splits it first ({@link splitPage}: the copies take their word's `pos`), as a
   * uniform page's; {@link merge} makes it. A positions record is never written once linked, and pages with equal
   * positions share one (lufact: the pages of one owner's columns at one step, rows written at the same steps), as
   * lists are shared ({@link shareList}): the thread's last record of each class is offered to its next patterned
   * pages ({@link positionsCandidates}), and a reference count at {@link POSITIONS_REFS} (the page's and the candidate's)
   * frees it at 0 ({@link dropPositions}). The reference is counted, or the record filled, then linked in place of the
   * heads record by one store, then the other lists and the heads record are freed: a thread stopped in between
   * leaves a count too high or a record not linked, or a patterned page with lists to free (leaks). Off where lists
   * are not shared (the online peers). Lock held; the page is split with heads record `heads`, its first word's list
   * not empty, the 8 lists equal but for their last Infos' `pos` ({@link merge}).
   */
  private pattern(heap: Int32Array, page: number, heads: number): void {
    const pos = this.patternPos;
    let hash = 0;
    for (let w = 1; w < 8; w++) {
      pos[w] = heap[lastInfo(heap, heap[heads + w]) + Info.POS] + 1;
      hash = Math.imul(hash ^ pos[w], 0x9e3779b1);
    }
    const slot = hash >>> (32 - POSITION_CLASS_BITS);
    const c = this.positionsCandidates[slot];
    let same = c !== 0;
    for (let w = 1; w < 8 && same; w++) same = heap[c + w] === pos[w];
    if (same) {
      this.addCount(c + POSITIONS_REFS, 1);
      heap[page + MARK] = -c;
    } else {
      const r = this.newRecord();
      for (let w = 1; w < 8; w++) heap[r + w] = pos[w];
      heap[r + POSITIONS_REFS] = 2; // the page and the candidate
      heap[page + MARK] = -r;
      this.positionsCandidates[slot] = r;
      if (c !== 0) this.dropPositions(c);
    }
    for (let w = 1; w < 8; w++) {
      const e = heap[heads + w];
      heap[heads + w] = 0;
      this.releaseList(e);
    }
    this.releaseRecord(heads);
  }

  /** Frees the Infos of the list from Info `e` (unlinked: no page reaches it). */
  protected releaseList(e: number): void {
    const heap = this.s.heap;
    while (e !== 0) {
      const next = heap[e + Info.NEXT];
      this.release(e);
      e = next;
    }
  }

  /**
   * Makes page `page` uniform again when its 8 words hold equal lists, Info by Info (same flags, owner, `pos`,
   * site, alock and explicit lockset, in the same order): the first word's list then stands for all 8, and the
   * other 7 lists are freed. Called once an access reached the page's last byte, or a range check recorded the
   * page; a loop over a page (one access per element, in order: the main thread's fill of an array, a row read
   * between two barriers) leaves equal lists, since between two synchronization events a thread's accesses of one
   * site get equal records. So the shadow of a page whose words share a history is one list, not eight (issue 24
   * §1, memory). Lists equal but for their sites are merged by site vectors ({@link mergeSites}), lists equal but
   * for their last Infos' `pos` make the page patterned ({@link pattern}); the three tests are one pass over the
   * lists ({@link listDiff}), which stops at the first word whose list allows none of them. The words are compared
   * from the one that stopped the page's last attempt, kept in its heads record's word {@link MERGE_HINT}: while a
   * loop reaches a page's words in no order (moldyn's `acc[base + 3*j + d]` of the pairs within the cut-off, an
   * attempt after each, {@link soleLike}), an attempt compares the words the loop has reached since the last one and
   * stops at the first it has not (was up to three passes over the 8 lists, each stopping on its own: in moldyn at 4
   * workers, 87% of the 2.8 M attempts failed). With `pairs`, a page whose lists fail at an odd word is tried for
   * a paired page ({@link pair}): after a range check with a lane of step 2 (the pages a red-black sweep splits),
   * and after the collector (`compact`); not after others, whose failing attempts would pay the test for nothing (a
   * matrix product's column lanes).
   * Lock held.
   */
  protected merge(heap: Int32Array, page: number, pairs = false): void {
    const heads = heap[page + MARK];
    if (!this.pagesKeptWhole() || heads <= 0) return; // uniform, patterned, or words 1–7 empty
    const e0 = heap[page + 1];
    if (e0 === 0) return;
    // a word without a list differs from the first (listDiff: OTHER): a loop filling the page word after word, up
    // (word 7 the last without one) or down (the first word the last), tries with a load or two, no comparison
    for (let k = 7; k > 0; k--) if (heap[heads + k] === 0) return;
    const shared = this.listsShared; // else only equal lists merge
    let diff = Diff.NONE;
    const hint = heap[heads + MERGE_HINT];
    let k = hint & 7 || 1;
    for (let n = 0; n < 7; n++, k = k === 7 ? 1 : k + 1) {
      diff |= listDiff(heap, e0, heap[heads + k]);
      if (diff >= (Diff.SITE | Diff.LAST_POS) || (diff !== Diff.NONE && !shared)) {
        // an even word differing from the first cannot be paired either
        const unpaired =
          pairs && k & 1 && shared ? this.pairable(heap, e0, heads, hint >> PAIR_HINT_SHIFT) : -1;
        if (unpaired === 0) {
          this.pair(heap, page, heads);
          return;
        }
        heap[heads + MERGE_HINT] =
          k | ((unpaired > 0 ? unpaired : hint >> PAIR_HINT_SHIFT) << PAIR_HINT_SHIFT);
        return;
      }
    }
    if (diff === Diff.NONE) this.makeUniform(heap, page, heads);
    else if (diff === Diff.SITE) this.mergeSites(heap, page, heads);
    else this.pattern(heap, page, heads);
  }

  /**
   * Are the lists of a split page's even words equal to its first word's (from Info `e0`), and those of its odd words
   * to word 1's, Info by Info ({@link sameList}), its heads record `heads`? Words 2–7 are compared from `from` (the
   * word that failed the page's last test, 0 or 2–7), so that a page tested again and again (a red-black sweep's
   * first or last page of a row, whose border column's list differs from its colour's) fails at its first compare
   * (was up to five whole lists compared each time). Lock held.
   * @returns 0 when they are, else the word (2–7) whose list differs.
   */
  private pairable(heap: Int32Array, e0: number, heads: number, from: number): number {
    const e1 = heap[heads + 1];
    let k = Math.max(from, 2);
    for (let n = 0; n < 6; n++, k = k === 7 ? 2 : k + 1)
      if (!sameList(heap, k & 1 ? e1 : e0, heap[heads + k])) return k;
    return 0;
  }

  /**
   * **Paired pages** (issue 24 §1, the opening SOR): a red-black sweep over a `Float64Array` writes the words of one
   * colour, every second word, and reads the others, so a page's even words share one history and its odd words
   * another, and no page is ever uniform. Such a page keeps two lists, its first word's for the even words and word
   * 1's for the odd ones, in a *pair header* (`Pair` of `./records.ts`: a reference count and the two lists' first
   * Infos) that the pages with equal lists share, as uniform pages share lists ({@link shareList}): the header this
   * thread made last in each of {@link PAIR_CANDIDATES} classes (the two lists' first sites and kinds: a sweep's rows
   * alternate two) is offered to its next paired pages. The page slot holds the header ({@link SHARED_SLOT}), the
   * even list's first Info ({@link HEAD}) and the marker {@link PAIRED}. A shared header and its lists are never
   * written: a range check over one colour's lane records that colour's list on a copy of the header, once per run,
   * and points the run's other pages of the same header to it (`Shadow.accessRuns`); any other access splits the
   * page first ({@link splitPage}: {@link unpair}, each word a copy of its colour's list). The marker is written
   * first (the odd words then read no list: a missed race, never a false alarm, if the thread stops there), then the
   * header, then the first word's head, then the lists the page no longer uses are freed (a leak if stopped before).
   * Only where lists are shared (not the online peers). Lock held; the page is split with heads record `heads`, its
   * lists {@link pairable}.
   */
  private pair(heap: Int32Array, page: number, heads: number): void {
    const e0 = heap[page + 1];
    const e1 = heap[heads + 1];
    const slot =
      (Math.imul(heap[e0 + Info.SITE] ^ heap[e0 + Info.FLAGS], 0x9e3779b1) ^
        heap[e1 + Info.SITE] ^
        heap[e1 + Info.FLAGS]) &
      (PAIR_CANDIDATES - 1);
    const c = this.pairCandidates[slot];
    const shared =
      c !== 0 && sameList(heap, heap[c + Pair.EVEN], e0) && sameList(heap, heap[c + Pair.ODD], e1);
    let h = c;
    if (shared) this.addCount(c + Pair.REFS, 1);
    else {
      h = this.newRecord();
      heap[h + Pair.REFS] = 2; // the page and the candidate
      heap[h + Pair.EVEN] = e0;
      heap[h + Pair.ODD] = e1;
    }
    heap[page + MARK] = PAIRED;
    heap[page + SHARED_SLOT] = h;
    heap[page + 1] = 0;
    for (let k = shared ? 0 : 2; k < 8; k++) this.releaseList(k === 0 ? e0 : heap[heads + k]);
    this.releaseRecord(heads);
    if (!shared) {
      this.pairCandidates[slot] = h;
      if (c !== 0) this.dropPair(c, 1);
    }
  }

  /**
   * The pair headers this thread offers its next paired pages (one reference held on each), or 0: the last one made
   * per class ({@link pair}). A thread that ends keeps them: at most PAIR_CANDIDATES headers per thread never freed.
   */
  private readonly pairCandidates = new Int32Array(PAIR_CANDIDATES);

  /**
   * The first word's list of page `page`, split with heads record `heads`, stands for all 8 from now on: the other
   * lists are freed, the page marked {@link UNIFORM}, the record freed and the list offered for sharing
   * ({@link shareList}). Lock held.
   */
  private makeUniform(heap: Int32Array, page: number, heads: number): void {
    for (let k = 1; k < 8; k++) {
      this.releaseList(heap[heads + k]);
      heap[heads + k] = 0;
    }
    heap[page + MARK] = UNIFORM;
    this.releaseRecord(heads);
    this.shareList(page);
  }

  /**
   * Merges page `page` by its site vectors (`./site-vectors.ts`) when its 8 words' lists are equal but for their
   * sites ({@link SiteVectors.sitesOf}; it stays split when no vector can be had). The first list's sites are
   * written before the marker: a thread stopped in between leaves a split page whose first word names vectors, read
   * by {@link siteAt} as its own sites. Only where lists are shared (the online peers read `SITE` directly). Lock
   * held; the page is split with heads record `heads`, its first word's list not empty, the 8 lists equal but for
   * their sites ({@link merge}).
   */
  private mergeSites(heap: Int32Array, page: number, heads: number): void {
    const e0 = heap[page + 1];
    const sites = this.siteVectors.sitesOf(heap, e0, heads);
    if (sites === undefined) return;
    let r = 0;
    for (let e = e0; e !== 0; e = heap[e + Info.NEXT]) heap[e + Info.SITE] = sites[r++];
    this.makeUniform(heap, page, heads);
  }

  /** This thread's site vectors ({@link mergeSites}), allocated from its Info pool. */
  protected readonly siteVectors = new SiteVectors(this.s, () => this.takeInfo());

  /**
   * Are the lists from head `head` ({@link headOf}; 0: none) of a split page's word and from head `first` (its page's
   * first word's) each one Info, this thread's, of the same `pos` and flags? Then an access has just written the word
   * or read it first, as the first word was, and its page may have become mergeable ({@link merge}) though the access
   * reached neither end of the page: moldyn's `acc[base + 3*j + d]` of the pairs within the cut-off, written in no
   * order. The first word's test keeps the merge attempt off the pages that cannot merge yet (a word of another
   * thread's or epoch's history): a pre-test, the merge compares the lists. Lock held.
   */
  protected soleLike(heap: Int32Array, head: number, first: number): boolean {
    const e = heap[head];
    const e0 = heap[first];
    return (
      e !== 0 &&
      e0 !== 0 &&
      heap[e + Info.NEXT] === 0 &&
      heap[e0 + Info.NEXT] === 0 &&
      heap[e + Info.OWNER] === this.t &&
      heap[e0 + Info.OWNER] === this.t &&
      heap[e + Info.POS] === heap[e0 + Info.POS] &&
      heap[e + Info.FLAGS] === heap[e0 + Info.FLAGS]
    );
  }

  /**
   * Page `page` (its lock held) kept as compactly as its lists allow ({@link merge}: uniform, shared, patterned),
   * after the partially-eager collector rewrote it (`./eager.ts`).
   */
  compact(page: number): void {
    this.merge(this.s.heap, page, true);
    this.shareList(page);
  }

  /**
   * **Shared lists** (issue 24 §1, memory): the pages of a loop over an array get equal lists (one thread's
   * accesses of the same sites between two synchronization events; crypt's 8 reads of a word, one per byte and site,
   * in every page), and a census found a few dozen distinct lists over all the words of a kernel. So a uniform page
   * whose list equals another page's points to one shared copy of it: the head of its first word points to the
   * list's first Info, its {@link SHARED_SLOT} to the list's header ([references, first Info], {@link Shared}).
   *
   * Protocol. A shared list is never written: its Infos are read by every thread that holds the lock of a page
   * pointing to it, under different locks. A thread about to change a shared page's list in place takes its own
   * copy first ({@link ownList}: an Info copied, the walk cache not stored into a shared Info, `Shadow.find`); the
   * partially-eager collector (`./eager.ts`) does the same for each page it rewrites, and shares it again after.
   * The header's reference count (a compare-exchange, pages of different locks drop it at once) counts the pages
   * pointing to the list and the one thread that keeps it as a candidate for its next merged pages
   * ({@link candidates}); whoever drops it to 0 frees the list, which no page reaches any more, nor a thread (a
   * page's list is read under its lock only). Terminate-safety: the copy is linked with one store, before the slot
   * is cleared and the reference dropped; a new reference is counted before a page points to the list, the slot
   * written before the head: a holder stopped between two writes leaves either a page whose own list is a copy of
   * the shared one while its slot still names it (the next {@link ownList} copies again, and drops the reference
   * once) or a count one too high (the list is never freed: a leak, not an error).
   *
   * Called with page `page` uniform (or not: then nothing is done), its lock held: the page's list is shared with the
   * candidate of its class (the last list of this class this thread shared) when equal to it, else becomes that
   * candidate.
   */
  shareList(page: number): void {
    const heap = this.s.heap;
    if (!this.listsShared || heap[page + MARK] !== UNIFORM || heap[page + SHARED_SLOT] !== 0) return;
    const own = heap[page + 1];
    if (own === 0) return;
    // the candidate of the lists like this one: by the first Info's site (its first word's, for a site vector:
    // moldyn's pages take three vectors in turn, each starting at another site) and kind (a loop interleaves arrays)
    const slot = (siteAt(heap, own, 0) ^ heap[own + Info.FLAGS]) & (CANDIDATES - 1);
    const last = this.candidates[slot];
    if (last !== 0 && sameList(heap, heap[last + Shared.FIRST], own)) {
      this.addRefs(last, 1);
      heap[page + SHARED_SLOT] = last;
      heap[page + 1] = heap[last + Shared.FIRST];
      for (let e = own; e !== 0; ) {
        const next = heap[e + Info.NEXT];
        this.release(e);
        e = next;
      }
      return;
    }
    const h = this.takeInfo();
    heap[h + Shared.REFS] = 2; // the page and this thread's candidate
    heap[h + Shared.FIRST] = own;
    heap[h + Info.LS] = 0; // released as an Info at the end
    heap[page + SHARED_SLOT] = h;
    this.candidates[slot] = h;
    if (last !== 0) this.addRefs(last, -1);
  }

  /**
   * Page `page` (uniform, its lock held), which points to a shared list, points to the shared list of header `to`
   * instead, with the protocol of {@link shareList}: its reference counted first, the slot written before the head,
   * then the old list's reference dropped. The partially-eager collector's (`./eager.ts`): `to` is what the page's list
   * became on another page.
   */
  repoint(page: number, to: number): void {
    const heap = this.s.heap;
    const old = heap[page + SHARED_SLOT];
    this.addRefs(to, 1);
    heap[page + SHARED_SLOT] = to;
    heap[page + 1] = heap[to + Shared.FIRST];
    this.addRefs(old, -1);
  }

  /**
   * Page `page` (its lock held) gets its own copy of the shared list it points to, if it does (see
   * {@link shareList}), to be changed in place.
   */
  ownList(page: number): void {
    const heap = this.s.heap;
    const h = heap[page + SHARED_SLOT];
    if (h === 0) return;
    this.copyShared(heap, page);
    this.addRefs(h, -1);
  }

  /**
   * {@link ownList} of page `page`, which points to a shared list, but the page's reference on that list is left to
   * the caller to drop.
   */
  protected copyShared(heap: Int32Array, page: number): void {
    const h = heap[page + SHARED_SLOT];
    let first = 0;
    let tail = 0;
    for (let e = heap[h + Shared.FIRST]; e !== 0; e = heap[e + Info.NEXT]) {
      const c = this.takeInfo();
      for (let f = 1; f < Info.SIZE; f++) heap[c + f] = heap[e + f];
      if (heap[c + Info.LS] !== 0) retainLockset(this.s, heap[c + Info.LS]);
      heap[c + Info.NEXT] = 0;
      if (tail === 0) first = c;
      else heap[tail + Info.NEXT] = c;
      tail = c;
    }
    heap[page + 1] = first;
    heap[page + SHARED_SLOT] = 0;
  }

  /** Shared lists are used (see {@link shareList}); off for the online peers, whose records change otherwise. */
  protected listsShared = true;

  /**
   * The headers of the shared lists this thread offers its next merged pages (one reference held on each), or 0:
   * the last one made per class of first Info ({@link shareList}). A thread that ends (or is terminated) keeps its
   * references: at most CANDIDATES lists per thread are never freed.
   */
  private readonly candidates = new Int32Array(CANDIDATES);

  /** Adds `n` to the references of the shared list of header `h`; frees it, header and Infos, at 0. */
  addRefs(h: number, n: number): void {
    const heap = this.s.heap;
    if (this.addCount(h + Shared.REFS, n) !== 0) return;
    for (let e = heap[h + Shared.FIRST]; e !== 0; ) {
      const next = heap[e + Info.NEXT];
      this.release(e);
      e = next;
    }
    heap[h + Shared.FIRST] = 0;
    this.release(h);
  }

  /**
   * Adds `n` to the reference count at heap index `at` by compare-exchange (pages of different locks change it at
   * once). @returns the count after.
   */
  protected addCount(at: number, n: number): number {
    const s = this.s;
    let refs = s.heap[at];
    for (;;) {
      const seen = s.pages.cas(at, refs, refs + n);
      if (seen === refs) return refs + n;
      refs = seen;
    }
  }
}
