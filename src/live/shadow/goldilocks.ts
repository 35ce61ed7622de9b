/**
 * Shadow state and the Goldilocks check for the live runtime (PLDI'07 §4 Figure 8, §5.1), over the shared
 * {@link SharedState}. Each thread checks its own accesses: no checker thread.
 *
 * **Granularity.** ECMA-262's memory model is defined on byte ranges and views of different element types may
 * overlap, so races are decided per byte. Shadow state is kept per 8-byte-aligned *word* of a buffer: a word has a
 * check lock (shared by the 8 words of its 64-byte page, {@link lockOf}) and a list of access records (`Info`), each
 * with the mask of the word's bytes it covers. An access of an element (1, 2, 4 or 8 bytes, always aligned in a
 * TypedArray) touches one word: one lock, one list, however its bytes overlap other views' elements. A DataView
 * access may straddle two words; a bulk operation covers many, a page at a time, and whole pages it covers may be
 * kept as one ({@link Shadow.uniform}), pointing to a list shared by many pages ({@link Shadow.shareList}).
 *
 * **Info** (8 Int32 in the shadow heap): `next`, `flags` (byte mask | WRITE | ATOMIC), `owner` (thread id), `pos`
 * (length of the synchronization event list when the access was checked), `site` (string id of its
 * `file:line:column`; on a merged page, minus the heap index of a vector of its 8 words' sites: {@link siteAt}), `alock` (key of a sync-library lock held at the access, two words, 0 = none), `ls` (0, or an
 * explicit lockset of `../memory/locksets.ts` that the Info holds a reference on: {owner} at `pos` evaluated up to
 * the lockset's start, §5.4 — its walks start there; `pos` stays the access's, for the memo). A word keeps
 * the last write of each byte and, since it, the last read of each byte by each thread (the paper's `WriteInfo`,
 * `ReadInfo`), where an atomic read keeps the thread's earlier reads of another kind (see {@link Shadow.record}).
 *
 * **Check** of an access by thread t against an Info of owner u on common bytes, when one of them writes and they
 * are not two atomic accesses of the same range (ECMA-262 data race): the short-circuits of §5.1 in order —
 * same owner (program order), alock held by t (u released it after its access, t acquired it since) — then the
 * happens-before memo (below), then Apply-Lockset-Rules: the lockset starts as `{u}` and the rules of each cell
 * from `pos` to the list's end are applied (or as the Info's explicit lockset, from its start); t ∈ lockset ⇔ u's
 * access happens-before t's (Theorem 1). A walk over at least {@link WALK_CACHE_MIN_CELLS} cells leaves its result in
 * the Info (the walk cache: its lockset where the walk stopped, stored explicitly), so the next check of that Info
 * starts there. The list is collected as `../memory/sync-list.ts` describes (with `./eager.ts`).
 * Rules (the paper's Figure 5 plus ECMA-262 atomics, see docs/RUNTIME.md): acquire(t,l): l∈LS ⇒ add t;
 * release(t,l): t∈LS ⇒ add l; fork(t,c): t∈LS ⇒ add c; join(t,c): c∈LS ⇒ add t; atomic write(t,v): t∈LS ⇒ add v,
 * else remove v; atomic read(t,v): v∈LS ⇒ add t; read-modify-write = read then write; send(t,m) / publish(t,v)
 * like a Java volatile write (t∈LS ⇒ add m); receive / subscribe like its read.
 *
 * **Memo** (the offline detector's happens-before memo): per thread, `known[u]` = the largest `pos` of an access
 * of u proven to happen before this thread's current point. An access of u with a smaller `pos` precedes that one
 * in u's program order, and this thread only moves forward, so the fact stays true. A join of u makes it +∞
 * ({@link Shadow.joined}); a walk that proves one access of u proves every access of u before the release of u this
 * thread entered through ({@link Shadow.walk}), and the memo takes that larger `pos`.
 *
 * **Files.** {@link Shadow} holds the Goldilocks check and the record of an access; it extends the word machinery
 * every live detector uses: the pending form (`./pending.ts`), the page forms and their split and merge (`./pages.ts`, with the site vectors of
 * `./site-vectors.ts`) over the Info pool (`./info-pool.ts`), the Info layout being `./records.ts`'. The online peers
 * (`./fasttrack.ts`, `./eraser.ts`) subclass it by overriding the check (the rules, short-circuits and predicate it
 * applies are the shared modules of `../../detectors/`).
 */
import { conflicting } from '../../detectors/ecma.js';
import {
  appliesInDirectTransfer,
  applyCommit,
  applyRule,
  DIRECT_TRANSFER_MAX_DISTANCE,
} from '../../detectors/goldilocks/rules.js';
import {
  CHECK_DECISIONS,
  Decided,
  firstShortCircuits,
  laterShortCircuits,
} from '../../detectors/goldilocks/short-circuit.js';
import { addsTarget, SyncKind } from '../../model/sync.js';
import { locksetOf, locksetReach, locksetStart, releaseLockset, storeLockset } from '../memory/locksets.js';
import {
  addStat,
  CELL,
  CHUNK_MASK,
  CHUNK_SHIFT,
  CTL,
  lockPage,
  rawAtomics,
  STAT,
  STATS,
  TAG_SHIFT,
  Tag,
  unlockPage,
} from '../memory/state.js';
import { mapCells, raisePosition } from '../memory/sync-list.js';
import { DATA, LiveLockset } from './lockset.js';
import { lockSome, unlockSome } from './page-locks.js';
import { Held, PendingPages } from './pending.js';
import { Access, Info, Pair, Shared, sameList } from './records.js';
import { siteAt } from './site-vectors.js';
import {
  firstWord,
  headIn,
  headOf,
  isRecordMark,
  isSplit,
  lockOf,
  MARK,
  PAGE_INTS,
  PAIRED,
  pageEnd,
  SHARED_SLOT,
  splitListed,
  UNIFORM,
} from './table.js';

export { Access, Info, Shared } from './records.js';
export { siteAt } from './site-vectors.js';

const COMMIT = SyncKind.Commit;
const ATOMIC_WRITE = SyncKind.AtomicWrite;

/**
 * Numbers per run in {@link Shadow.accessRuns}' list: address of the first word (`./table.ts`), words, flags, site,
 * byte mask of each word, step (1: consecutive words; 2 or more: every step-th word, a lane of `../spans.ts`).
 */
export const RUN_FIELDS = 6;

/** The first word at or after word `to` of a run through word `w` with step `step` (`to` itself for step 1). */
const onStep = (w: number, to: number, step: number): number =>
  step === 1 ? to : w + step * Math.ceil((to - w) / step);
/**
 * The whole pages {@link Shadow.accessRange} checks at once (their locks held together): 4 KiB of a bulk method's
 * range.
 */
export const BULK_PAGES = 64;
/** The walk cache: a walk over at least this many cells stores its result in the Info (see the file header). */
export const WALK_CACHE_MIN_CELLS = 256;

/**
 * Must an access of the bytes `mask` with `flags` be checked against an Info with flags `f`? When they would form an
 * ECMA-262 data race (`../../detectors/ecma.ts`): they share a byte, one of them writes, and they are not two atomic
 * accesses of the same range (an atomic access is one aligned element of a word: equal masks, equal ranges).
 */
const conflicts = (f: number, mask: number, flags: number): boolean =>
  conflicting(
    (f & mask) !== 0,
    ((flags | f) & Access.WRITE) !== 0,
    (flags & f & Access.ATOMIC) !== 0,
    (f & Access.MASK) === mask,
  );

/** Index of the first check-decision counter (CHECK_DECISIONS, in order) in STATS. */
const DECIDED = STAT[CHECK_DECISIONS[0]];
/**
 * The counters {@link Shadow.shortCircuited} changes — `accesses`, `checks` and the check decisions, consecutive in
 * STATS — as the indices [{@link PAGE_FROM}, {@link PAGE_TO}): what `Shadow.pageCounts` measures, not all ~30.
 */
const PAGE_FROM = STAT.accesses;
const PAGE_TO = DECIDED + CHECK_DECISIONS.length;
if (STAT.checks !== PAGE_FROM + 1 || DECIDED !== PAGE_FROM + 2)
  throw new Error(
    'goldilocks: internal: accesses, checks and the check decisions are not consecutive counters',
  );

/** A refutation memo of {@link Shadow}: the lockset of an access of another thread at `pos`, walked to `end`. */
interface Refutation {
  pos: number;
  end: number;
  ls: LiveLockset;
}

/** A conflicting earlier access found by a check. */
export interface Conflict {
  owner: number;
  flags: number;
  site: number;
  /** How it was decided (for the report). */
  detail: string;
  /** The lockset at the end of the walk, as object keys (see {@link keyName}). */
  lockset: number[];
}

const TWO32 = 2 ** 32;

/** The lockset key of thread `t`. */
export const threadKey = (t: number): number => t;
/** The lockset key of the object in a cell's `a`, `b` words. */
export const objectKey = (a: number, b: number): number => a * TWO32 + (b >>> 0);

/** The tag, id (`a` word) and `b` word of an object's lockset key (not a thread's: `key` ≥ 2^32). */
export function keyParts(key: number): { tag: number; id: number; b: number } {
  const a = Math.floor(key / TWO32);
  return { tag: a >>> TAG_SHIFT, id: a & ((1 << TAG_SHIFT) - 1), b: key % TWO32 };
}

/** `tag`/`id` packed into a cell's `a` word. */
export const packA = (tag: number, id: number): number => (tag << TAG_SHIFT) | id;

/**
 * Per-thread checker over the shared state: Goldilocks. The online peers (`--detector`) subclass it: FastTrack
 * (`./fasttrack.ts`) replaces {@link check} and {@link now} (what an Info's `pos` holds), Eraser (`./eraser.ts`)
 * replaces {@link find} and {@link record}; the word locks, {@link access}, the Info allocation and the counters
 * are shared.
 */
export class Shadow extends PendingPages {
  /** Happens-before memo: per other thread, the largest proven `pos` (see the file header). */
  private known = new Float64Array(16).fill(-1);
  /** The lockset of the walks (reused). */
  private readonly ls = new LiveLockset();
  /** Refutation memo: per other thread, a lockset a full walk found without this thread ({@link refute}). */
  private readonly refuted = new Map<number, Refutation>();
  /**
   * How the short-circuits decided the Infos {@link proven} proved during the current {@link shortCircuited}, per
   * {@link Decided} index: added to {@link counts} when the whole word is decided, dropped when {@link find} must
   * check it again (so the decisions sum to `checks`). `tallied`: some entry is not 0.
   */
  private readonly tally = new Float64Array(CHECK_DECISIONS.length);
  private tallied = false;
  /** The shared list whose references {@link dropRefs} has yet to drop, and how many. */
  private dropping = 0;
  private drops = 0;

  /** Sync-library locks this thread holds, innermost last: pairs of (a, b) words. */
  readonly held: number[] = [];
  /** Local counters, added to the shared ones by {@link flush}. */
  readonly counts = new Float64Array(STATS.length);

  /**
   * Where this thread's accesses start their lockset walks: the list position right after this thread's last
   * synchronization cell (set by the runtime after each of its appends, and when the thread starts). Any position
   * between that cell and this thread's next cell gives the same walk result: cells of other threads before this
   * thread's next cell cannot grow the lockset {t} (every rule adds a thread or an object only from a member of
   * the lockset). An earlier position makes the happens-before memo hit more often than the list's end would.
   * Kept in the shared `positions[t]`, which only grows: the list's collector moves it past the cells it collects
   * (`../memory/sync-list.ts`); read under a word's check lock when an access is recorded.
   */
  get pos(): number {
    const s = this.s;
    if (this.t >= s.positions.length) s.refresh();
    return s.positions[this.t];
  }

  set pos(p: number) {
    const s = this.s;
    if (this.t >= s.positions.length) s.refresh();
    raisePosition(s.positions, this.t, p);
  }

  /**
   * Checks an access of the bytes `mask` of word `word` (its address, `./table.ts`) with `flags` (WRITE,
   * ATOMIC) at site `site` (string id) and, unless it races and `stopOnRace`, records it. Takes and releases the
   * word's check lock (its page's).
   * @returns the first conflict found, or undefined.
   */
  access(word: number, mask: number, flags: number, site: number, stopOnRace: boolean): Conflict | undefined {
    this.accessRun(word, 1, mask, mask, flags, site, stopOnRace);
    return this.lastConflict;
  }

  /** The conflict the last {@link accessRun} stopped at, or undefined. */
  lastConflict: Conflict | undefined = undefined;

  /**
   * {@link access} by a caller that holds the word's check lock (its page's, {@link lockOf}) already: a commit, which
   * holds the pages of all its words from before its cell is appended until its last access is recorded
   * (`../stm-observer.ts`). A uniform page is split, and merged again as {@link accessRun} merges it.
   * @returns the conflict found (also in {@link lastConflict}), or undefined.
   */
  accessHeld(
    word: number,
    mask: number,
    flags: number,
    site: number,
    stopOnRace: boolean,
  ): Conflict | undefined {
    const page = lockOf(word);
    if (page + PAGE_INTS > this.s.heap.length) this.s.refresh();
    this.splitPage(page);
    this.checkRecord(this.s.heap, word, mask, flags, site, stopOnRace);
    if ((word === firstWord(page) && mask & 1) || (word === firstWord(page) + 7 && mask & 0x80))
      this.merge(this.s.heap, page);
    return this.lastConflict;
  }

  /**
   * {@link access} of `n` consecutive words from address `word`: the bytes `first` of the first, `last` of the
   * last (`first` alone when n = 1), all 8 of the others. Takes each page's check lock once. A page the run covers
   * whole, all 64 bytes, is checked and recorded once when it is *uniform* (below). Stops after the first word with
   * a conflict, left in {@link lastConflict} (in a uniform page: its first word).
   * @returns the number of words done (checked and, unless racing with `stopOnRace`, recorded).
   */
  accessRun(
    word: number,
    n: number,
    first: number,
    last: number,
    flags: number,
    site: number,
    stopOnRace: boolean,
  ): number {
    const s = this.s;
    const end = word + n;
    this.lastConflict = undefined;
    for (let w = word; w < end; ) {
      const page = lockOf(w);
      if (page + PAGE_INTS > s.heap.length) s.refresh();
      const heap = s.heap;
      const w0 = firstWord(page);
      const stop = Math.min(end, w0 + 8);
      lockPage(s, page);
      try {
        const whole =
          w === w0 &&
          stop === w0 + 8 &&
          (w !== word || first === Access.MASK) &&
          (stop !== end || last === Access.MASK);
        if (whole && this.uniform(heap, page)) {
          // the page's first word stands for all 8
          if (heap[page + SHARED_SLOT] !== 0) this.ownList(page);
          if (this.checkRecord(heap, w0, Access.MASK, flags, site, stopOnRace)) return w0 - word + 1;
          w = stop;
          continue;
        }
        if (
          n === 1 &&
          heap[page + MARK] === UNIFORM &&
          this.unchanged(heap, page + 1, w & 7, first, flags, site)
        ) {
          // an element accessed again since its last synchronization: checked on the page's list, kept whole
          this.lastConflict = this.shortCircuited(heap, page + 1, first, flags)
            ? undefined
            : this.find(w0, first, flags, w & 7);
          return 1;
        }
        if (
          n === 1 &&
          // a page split with a list for its first word cannot be pending (`PendingPages.pendingState` says NONE): not
          // asked, so that an access of a split page (a red-black sweep's, every page) costs no call
          !splitListed(heap, page) &&
          (flags & ~Access.WRITE) === 0 &&
          this.commitPos < 0 &&
          this.pendingWord(page, w, first, flags, site, stopOnRace)
        )
          return 1;
        const from = w;
        if (!isSplit(heap, page)) this.splitPage(page); // a split page: no call (splitPage would do nothing)
        for (; w < stop; w++) {
          const mask = w === word ? first : w + 1 === end ? last : Access.MASK;
          if (this.checkRecord(heap, w, mask, flags, site, stopOnRace)) return w - word + 1;
        }
        // a loop over the page, up or down, has reached its end: the access covered the page's last byte (bit 7 of
        // its last word's mask) or its first (bit 0 of its first word's mask)
        const lastByte = stop === w0 + 8 && (stop !== end || (end - 1 === word ? first : last) & 0x80);
        const firstByte = from === w0 && (w0 !== word || first & 1);
        if (lastByte || firstByte || (n === 1 && this.soleLike(heap, headOf(heap, word), page + 1)))
          this.merge(heap, page);
      } finally {
        unlockPage(s, page);
      }
    }
    return n;
  }

  /**
   * {@link accessRun} of a bulk method's access (`../runtime.ts` checkRange): the same arguments, result and
   * {@link lastConflict}. Its whole pages, {@link BULK_PAGES} at a time, are checked as a range check's run
   * ({@link accessRuns}: every page locked at once, checked, then recorded run-level, the pages of equal lists pointing
   * to one shared list); a group with a conflict is done again by {@link accessRun}, which records up to the conflict
   * and leaves it in {@link lastConflict}, as without the groups. The partial pages at its ends, plain accesses of
   * fewer than 8 whole pages, atomic or transactional ones, and checkers without range checks ({@link rangeChecks})
   * take {@link accessRun}.
   * @returns the number of words done.
   */
  accessRange(
    word: number,
    n: number,
    first: number,
    last: number,
    flags: number,
    site: number,
    stopOnRace: boolean,
  ): number {
    const end = word + n;
    const a = (word & 7) === 0 && first === Access.MASK ? word : pageEnd(word); // the whole pages: [a, b)
    const b = last === Access.MASK ? end & -8 : (end - 1) & -8;
    if (b - a < 8 || (flags & ~Access.WRITE) !== 0 || this.commitPos >= 0 || !this.rangeChecks)
      return this.accessRun(word, n, first, last, flags, site, stopOnRace);
    if (a > word) {
      const done = this.accessRun(word, a - word, first, Access.MASK, flags, site, stopOnRace);
      if (this.lastConflict !== undefined) return done;
    }
    const runs = this.bulkRun;
    runs[2] = flags;
    runs[3] = site;
    for (let p = a; p < b; p += 8 * BULK_PAGES) {
      const q = Math.min(b, p + 8 * BULK_PAGES);
      const pages = this.bulkPages;
      const nPages = (q - p) >> 3;
      for (let k = 0, page = lockOf(p); k < nPages; k++, page += PAGE_INTS) pages[k] = page;
      runs[0] = p;
      runs[1] = q - p;
      if (!this.accessRuns(runs, pages, nPages)) {
        const done = this.accessRun(p, q - p, Access.MASK, Access.MASK, flags, site, stopOnRace);
        if (this.lastConflict !== undefined) return p - word + done;
      }
    }
    this.lastConflict = undefined;
    if (b === end) return n;
    return (
      b - word + this.accessRun(b, end - b, end - b === 1 ? last : Access.MASK, last, flags, site, stopOnRace)
    );
  }

  /** {@link accessRange}'s run ({@link RUN_FIELDS}: whole words, step 1) and the page locks of its group. */
  private readonly bulkRun = [0, 0, 0, 0, Access.MASK, 1];
  private readonly bulkPages = new Int32Array(BULK_PAGES);

  /**
   * {@link accessRun} of a plain access of the bytes `mask` of word `w` (a write when `flags` is WRITE, else a read)
   * on page `page` (its lock held) when it can be pending (`PendingPages.pendingState` of `./pending.ts`): checked
   * against the list the word stands for — the page's list, after this thread's own read or write when it has one
   * (the owner short-circuit, when it conflicts) — and recorded as pending (`PendingPages.pend`). A conflict splits the page
   * first, then the access is recorded as {@link checkRecord} does (unless `stop`, on a race), left in
   * {@link lastConflict}.
   * @returns false when the access cannot be pending (nothing done).
   */
  private pendingWord(
    page: number,
    w: number,
    mask: number,
    flags: number,
    site: number,
    stop: boolean,
  ): boolean {
    const heap = this.s.heap;
    const held = this.held;
    const alockA = held.length ? held[held.length - 2] : 0;
    const alockB = held.length ? held[held.length - 1] : 0;
    const now = this.now();
    const k = w & 7;
    const write = flags !== 0;
    const state = this.pendingState(heap, page, k, mask, write, site, now, alockA, alockB);
    if (state === Held.NONE) return false;
    const counts = this.counts;
    if (
      state === Held.WRITTEN ||
      (write && (state === Held.READ || (state === Held.PART && mask === Access.MASK)))
    ) {
      // this thread's own read or write, conflicting
      counts[STAT.checks]++;
      counts[STAT.shortCircuitOwner]++;
    }
    let c: Conflict | undefined;
    if (state === Held.WRITTEN)
      counts[STAT.accesses]++; // its list: this thread's write alone
    else
      c = this.shortCircuited(heap, page + 1, mask, flags)
        ? undefined
        : this.find(firstWord(page), mask, flags, k);
    this.lastConflict = c;
    if (c === undefined) {
      const mark = heap[page + MARK];
      const x = mark === UNIFORM ? this.openPending(page, now, alockA, alockB) : -mark;
      this.pend(page, x, k, mask, write, site);
    } else {
      this.splitPage(page);
      if (!stop) this.record(w, mask, flags, site);
    }
    return true;
  }

  /**
   * A range check (`../spans.ts`): checks, then records, the accesses of the runs of words `runs` (six numbers per
   * run: address of its first word, number of words, flags — 0 or WRITE: plain accesses —, site, the byte
   * mask accessed in each of its words: {@link Access.MASK} for whole words, fewer bytes for elements smaller than
   * a word, e.g. byte 3 of each of 1000 words for crypt's `text1[i + 3]`, `i = 8 * blk`, and the step: 1 for
   * consecutive words, 2 or more for every step-th word, e.g. 2 for the red elements of a row of a red-black sweep over a
   * Float64Array, which leave the run's pages split), holding the check locks of all their pages, the first `nPages` of `pages` (ascending, each
   * once), throughout, so that no access of another thread comes between the check and the record. Records nothing
   * when an access would conflict: the loop then runs its per-access checks, which report the race at its access.
   * The pages are locked in ascending order; every other holder of a page lock holds no other page lock while it
   * waits for one (`accessRun`, the eager collector), so this cannot deadlock. A run covering a uniform page whole
   * is checked and recorded once for the page, as {@link accessRun} does. Counted as the checks of
   * {@link accessRun}. The locks of consecutive pages are taken and released by one call each (`./page-locks.ts`).
   *
   * **The Owner case inline** (97% of lufact's and sor's checks): a word whose Infos are all this thread's is
   * decided by the owner short-circuit without a call ({@link ownedWord}), and a word whose list is this thread's
   * one Info of exactly this access is recorded in place ({@link recordOwned}); any other word takes
   * {@link shortCircuited}/{@link find} and {@link record}, the reference path, and the run's other uniform pages
   * whose lists equaled it before point to its recorded list ({@link pointToRun}).
   * @returns true when every access was checked and recorded, false when one would conflict (nothing recorded).
   */
  accessRuns(runs: readonly number[], pages: Int32Array, nPages: number): boolean {
    const s = this.s;
    let held = 0;
    try {
      const heap = s.heap; // fixed-length (`../memory/state.ts`)
      while (held < nPages) held += lockSome(s, pages, held, nPages);
      let owned = 0; // words decided by the Owner case, and their checks (counted once, below)
      let ownChecks = 0;
      for (let r = 0; r < runs.length; r += RUN_FIELDS) {
        const step = runs[r + 5];
        const end = runs[r] + step * (runs[r + 1] - 1) + 1;
        const flags = runs[r + 2];
        const mask = this.sameWords(runs, r);
        r = this.lastSameWords;
        // the shared list or pair header of the run's last page decided by the Owner case (its Infos: `own`), or 0
        let list = 0;
        let listOwn = 0;
        let listMark = 0; // that page's marker: UNIFORM or PAIRED
        for (let w = runs[r]; w < end; ) {
          if (list !== 0) {
            const n = this.pagesOn(heap, w, end, list, listMark); // the same list: the same Infos, decided alike
            if (n > 0) {
              if (listOwn >= 0) {
                owned += n;
                ownChecks += n * listOwn;
              } else this.countPages(n);
              w = onStep(w, Math.min(end, firstWord(lockOf(w)) + 8 * n), step);
              continue;
            }
          }
          const page = lockOf(w);
          let mark = heap[page + MARK];
          if (isRecordMark(mark)) {
            this.splitPage(page); // patterned: a list per word
            mark = heap[page + MARK];
          }
          const uniform = mark === UNIFORM; // its first word stands for all 8
          // paired, a lane of even step: its words on this page are of one colour, with one list; or a run of step 1
          // from its first word on: its two lists
          const paired =
            mark === PAIRED && ((step & 1) === 0 || (step === 1 && (w & 7) === 0 && end > w + 1));
          const shared = uniform || paired ? heap[page + SHARED_SLOT] : 0;
          const word = uniform ? firstWord(page) : w;
          const head = headIn(heap, page, mark, word & 7); // the marker read above (a column's words: one page each)
          const both = paired && step === 1;
          // the same list: the same Infos
          const own =
            list !== 0 && shared === list ? listOwn : this.ownedPaged(heap, head, both, flags, mask);
          if (own >= 0) {
            owned++;
            ownChecks += own;
            list = shared;
            listOwn = own;
            listMark = mark;
          } else {
            // a loop, not TypedArray#set: the runtime's own views take no patched method
            if (shared !== 0) for (let i = PAGE_FROM; i < PAGE_TO; i++) this.pageCounts[i] = this.counts[i];
            const even = this.shortCircuited(heap, head, mask, flags);
            const odd = !both || this.shortCircuited(heap, head + 1, mask, flags);
            if ((!even && this.find(word, mask, flags)) || (!odd && this.find(word + 1, mask, flags))) {
              this.countOwned(owned, ownChecks);
              return false;
            }
            if (shared !== 0 && even && odd) {
              // decided by the short-circuits: so are the next pages on this list, whose checks are counted as this one's
              // (a walk's result is remembered instead: the next page on the list is decided by the memo, and measured)
              const c = this.pageCounts;
              for (let i = PAGE_FROM; i < PAGE_TO; i++) c[i] = this.counts[i] - c[i];
              list = shared;
              listOwn = -1;
              listMark = mark;
            }
          }
          w = uniform || paired ? onStep(w, Math.min(end, pageEnd(w)), step) : w + step;
        }
      }
      this.countOwned(owned, ownChecks);
      const now = this.now();
      this.nSplit = 0;
      for (let r = 0; r < runs.length; r += RUN_FIELDS)
        if (runs[r + 5] === 1)
          this.recordRun(heap, runs[r], runs[r + 1], runs[r + 2], runs[r + 3], runs[r + 4], now);
        else this.recordStrided(heap, runs, r, now);
      let pairs = false; // a lane of step 2 (a red-black sweep's): the pages it split may be paired
      for (let r = 0; r < runs.length && !pairs; r += RUN_FIELDS) pairs = runs[r + 5] === 2;
      for (let k = 0; k < this.nSplit; k++) this.merge(heap, this.splitRecorded[k], pairs);
      return true;
    } finally {
      for (let k = 0; k < held; ) k += unlockSome(s, pages, k, held);
    }
  }

  /**
   * The counters' change by the check of the last page {@link accessRuns} decided on a shared list by the
   * short-circuits of {@link shortCircuited} other than its Owner case inline (the alock, the memo), added once per
   * later page of the run on that list ({@link countPages}): the same Infos, the same thread state (the memo only
   * grows), decided alike.
   */
  private readonly pageCounts = new Float64Array(PAGE_TO);

  /** Counts the checks of `n` pages decided as the last one {@link pageCounts} measured. */
  private countPages(n: number): void {
    const c = this.pageCounts;
    const counts = this.counts;
    for (let i = PAGE_FROM; i < PAGE_TO; i++) if (c[i] !== 0) counts[i] += n * c[i];
  }

  /**
   * How many pages, from the page of word `w` on and starting before word `end`, are of marker `mark` (UNIFORM or
   * PAIRED) and point to the shared list or pair header `list`: {@link accessRuns}' check of the run's pages after one
   * its Owner case decided on that list (for a pair header, a lane of one colour), in one tight loop (lufact's column:
   * all its pages but the first; a red-black sweep's row), and {@link pointRun}'s and {@link recordStrided}'s pages.
   * Page locks held.
   */
  private pagesOn(heap: Int32Array, w: number, end: number, list: number, mark = UNIFORM): number {
    let n = 0;
    for (
      let p = lockOf(w);
      firstWord(p) < end && heap[p + MARK] === mark && heap[p + SHARED_SLOT] === list;
      p += PAGE_INTS
    )
      n++;
    return n;
  }

  /**
   * The bytes of run `r` of `runs` ({@link accessRuns}) and of the runs right after it over the same words with the
   * same flags (the lanes of one view: crypt's 8 bytes of a word, each read at its own site), checked as one access
   * of all those bytes: an Info conflicts with it exactly when it conflicts with one of them (its bytes overlap one,
   * the same kinds), with the same verdict, as the checks of one thread's accesses do not depend on each other.
   * Sets {@link lastSameWords} to the last of those runs.
   */
  private sameWords(runs: readonly number[], r: number): number {
    let mask = runs[r + 4];
    let last = r;
    for (let x = r + RUN_FIELDS; x < runs.length; x += RUN_FIELDS) {
      if (
        runs[x] !== runs[r] ||
        runs[x + 1] !== runs[r + 1] ||
        runs[x + 2] !== runs[r + 2] ||
        runs[x + 5] !== runs[r + 5]
      )
        break;
      mask |= runs[x + 4];
      last = x;
    }
    this.lastSameWords = last;
    return mask;
  }

  /** The last run {@link sameWords} took. */
  private lastSameWords = 0;

  /**
   * The record step of {@link accessRuns} for one run: `n` words from address `word`, plain accesses of the bytes
   * `mask` of each with `flags` (0 or WRITE) at `site`, list position `now`; every page's lock held, every access
   * checked.
   *
   * **Run-level record** (BigFoot's coalescing on the shadow side, PLDI 2017 §4): {@link record} leaves equal lists
   * on pages that had equal lists (its result depends only on the list and the access, the same for the whole run),
   * so a uniform page covered whole is recorded by the general path once — its own copy ({@link ownList}),
   * {@link recordOwned} or {@link record}, then {@link shareList} — and each later page of the run that had the
   * same list points to the list that page got ({@link pointToRun}), without copying: a page pointing to the same
   * shared list `from`, a page whose own list equals `from`'s (the general page's own list is shared before its
   * record, so that the others are compared with it: sor's rows, this thread's write and read), or a page whose list
   * is one Info of this thread's of this very access when the general page's was ({@link ownedOnly}: the result is
   * one Info of this access at `now`). The run's pages then go
   * back to the lists shared across pages and runs, one list per run and kind of list, not one per page.
   * References: the general page's reference on `from` is kept until the run ends (so that `from` is not freed and
   * its header reused as another list meanwhile), and `spare` references are counted on `to` ahead of the run's
   * pages that will point to it, returned at the end; drops are batched ({@link dropRefs}). A stop in between
   * leaves counts too high: a leak, never a list freed while a page points to it.
   */
  private recordRun(
    heap: Int32Array,
    word: number,
    n: number,
    flags: number,
    site: number,
    mask: number,
    now: number,
  ): void {
    const end = word + n;
    let from = 0; // the shared list the general page pointed to (its reference kept), 0 = its own list
    let to = 0; // the shared list the general page got, 0 = none
    let owned = false; // the general page's list was ownedOnly
    let spare = 0; // references counted on `to` ahead
    for (let w = word; w < end; ) {
      const page = lockOf(w);
      const stop = Math.min(end, pageEnd(w));
      if (w === firstWord(page) && stop === pageEnd(w) && heap[page + MARK] === PAIRED) {
        w = stop + 8 * this.recordPaired(heap, page, w, true, flags, site, mask, now, (end - stop) >> 3);
        continue;
      }
      if (w === firstWord(page) && stop === pageEnd(w) && this.uniform(heap, page)) {
        let old = heap[page + SHARED_SLOT];
        if (
          to !== 0 &&
          ((from !== 0 &&
            (old === from || (old === 0 && sameList(heap, heap[from + Shared.FIRST], heap[page + 1])))) ||
            (owned && this.ownedOnly(heap, page + 1, flags, mask)))
        ) {
          if (old !== to) {
            this.pointToRun(heap, page, to);
            spare--;
          }
        } else {
          if (old === 0 && heap[page + 1] !== 0 && !this.ownedOnly(heap, page + 1, flags, mask)) {
            this.shareList(page); // its list before the record, shared: the run's later pages are compared with it
            old = heap[page + SHARED_SLOT];
          }
          if (old !== 0) this.copyShared(heap, page); // its reference on `old` kept
          const wasOwned = this.recordOwned(heap, page + 1, flags, site, mask, now);
          if (!wasOwned) this.record(firstWord(page), mask, flags, site);
          this.shareList(page);
          const h = heap[page + SHARED_SLOT];
          if (h === 0) {
            if (old !== 0) this.addRefs(old, -1);
          } else {
            this.endRun(to, spare, from);
            from = old;
            to = h;
            owned = wasOwned;
            spare = (end - stop) >> 3; // at most the run's whole pages after this one (8 words each)
            if (spare > 0) this.addRefs(h, spare);
          }
        }
        w = stop;
        if (to !== 0 && from !== 0 && from !== to) {
          const pointed = this.pointRun(heap, w, end, from, to);
          spare -= pointed;
          w += 8 * pointed;
        }
        continue;
      }
      this.splitPage(page);
      this.splitRecorded[this.nSplit++] = page;
      for (; w < stop; w++) this.recordWord(heap, w, flags, site, mask, now);
    }
    this.endRun(to, spare, from);
    this.endPairRun();
  }

  /**
   * The record step of {@link accessRuns} for run `r` of `runs` whose step is 2 or more: each of its words recorded
   * on its page split (a page holds at most 4 of its words, never all 8: no page is covered whole), as
   * {@link recordRun} records a page it does not cover whole, its page then tried for a merge; but a paired page
   * (`Pages.pair`) whose colour's 4 words the run covers (step 2) is recorded once, on that colour's list.
   *
   * **Run-level record of paired pages**, as {@link recordRun}'s of uniform pages: the first such page gets a pair
   * header of its own ({@link ownPair}), recorded in place, and each later page of the run that pointed to the same
   * header ({@link pairFrom}) points to that one ({@link pairTo}), without a copy, in one loop ({@link recordPaired}; a
   * red-black sweep's row: all its pages but the first and last). References: the first page's on the old header is
   * kept until the run ends (so that it is not freed and its record reused as another header meanwhile), spare
   * references are counted on the new one ahead of the pages that will point to it and returned at the end, and the
   * drops from the old one are counted and dropped at the end ({@link endPairRun}): a stop in between leaves counts
   * too high, a leak, never a header freed while a page points to it. Every page's lock held,
   * every access checked.
   */
  private recordStrided(heap: Int32Array, runs: readonly number[], r: number, now: number): void {
    const step = runs[r + 5];
    const n = runs[r + 1];
    const flags = runs[r + 2];
    const site = runs[r + 3];
    const mask = runs[r + 4];
    let page = -1;
    for (let i = 0, w = runs[r]; i < n; i++, w += step) {
      if (lockOf(w) !== page) {
        page = lockOf(w);
        if (step === 2 && (w & 6) === 0 && i + 3 < n && heap[page + MARK] === PAIRED) {
          // the run covers the colour of w on the page: its 4 words, one list; and the pages after it that it covers
          // whole and that pointed to the same header, in one loop
          const m = 1 + this.recordPaired(heap, page, w, false, flags, site, mask, now, (n - i - 4) >> 2);
          i += 4 * m - 1;
          w += 8 * m - 2;
          page += PAGE_INTS * (m - 1);
          continue;
        }
        this.splitPage(page);
        this.splitRecorded[this.nSplit++] = page;
      }
      this.recordWord(heap, w, flags, site, mask, now);
    }
    this.endPairRun();
  }

  /**
   * The record of a plain access of the bytes `mask` with `flags` at `site` (list position `now`) on paired page
   * `page` (`Pages.pair`), of its colour of word `w` — of both, `w` the page's first word, when `both` — covered
   * whole by the run being recorded ({@link recordStrided}, {@link recordRun}), after which at most `later` pages of
   * the run are: the run-level record of paired pages (see {@link recordStrided}): the run's first such page gets a
   * header of its own ({@link ownPair}) recorded in place, each later page of the same header points to it. Every
   * page's lock held. The run ends with {@link endPairRun}.
   * @returns how many of the `later` pages right after `page` it did too, in one loop: those pointing to `page`'s
   * header (before its record), up to the first that does not.
   */
  private recordPaired(
    heap: Int32Array,
    page: number,
    w: number,
    both: boolean,
    flags: number,
    site: number,
    mask: number,
    now: number,
    later: number,
  ): number {
    const h = heap[page + SHARED_SLOT];
    if (this.pairTo === 0 || h !== this.pairFrom || this.pairSpare === 0) {
      this.endPairRun();
      this.pairFrom = h;
      this.pairTo = this.ownPair(page);
      this.recordWord(heap, w, flags, site, mask, now); // on its own header's lists
      if (both) this.recordWord(heap, w + 1, flags, site, mask, now);
      this.pairSpare = later;
      this.pairMoved = 0;
      if (later > 0) this.addCount(this.pairTo + Pair.REFS, later);
    } else {
      heap[page + SHARED_SLOT] = this.pairTo;
      this.pairSpare--;
      this.pairMoved++;
    }
    // the later pages of the same header, up to those the run covers whole: pointed in one tight loop
    const to = this.pairTo;
    const first = firstWord(page) + 8;
    const m = Math.min(this.pairSpare, this.pagesOn(heap, first, first + 8 * later, h, PAIRED));
    for (let k = 1; k <= m; k++) heap[page + PAGE_INTS * k + SHARED_SLOT] = to;
    this.pairSpare -= m;
    this.pairMoved += m;
    return m;
  }

  /**
   * {@link recordPaired}'s run: the pair header its first page pointed to before its record (that page's reference
   * kept), the header it got (0: none), the references counted on that one ahead, the pages moved to it.
   */
  private pairFrom = 0;
  private pairTo = 0;
  private pairSpare = 0;
  private pairMoved = 0;

  /**
   * The references {@link recordPaired} holds for the pages of a run it moved from one pair header to another: the
   * spare ones counted on the new one, the drops from the old one and the first page's reference on it.
   */
  private endPairRun(): void {
    const to = this.pairTo;
    if (to === 0) return;
    this.pairTo = 0;
    if (this.pairSpare > 0) this.addCount(to + Pair.REFS, -this.pairSpare);
    // 0: a page paired by a thread stopped before its header
    if (this.pairFrom !== 0) this.dropPair(this.pairFrom, this.pairMoved + 1);
  }

  /**
   * The record of a plain access of the bytes `mask` of word `w` (on its split page) with `flags` at `site`, list
   * position `now`: in place when its list is this thread's one Info of this access ({@link recordOwned}), else by
   * {@link record}. Lock held.
   */
  private recordWord(
    heap: Int32Array,
    w: number,
    flags: number,
    site: number,
    mask: number,
    now: number,
  ): void {
    if (!this.recordOwned(heap, headOf(heap, w), flags, site, mask, now)) this.record(w, mask, flags, site);
  }

  /**
   * {@link recordRun}'s common case in one loop: from word `w` (a page's first), each whole page before `end` that is
   * uniform and points to the shared list `from` (the general page's before its record) points to `to` (the list it
   * got, `from` ≠ `to`) as {@link pointToRun} does it — the slot before the head, the reference on `from` dropped
   * (batched), `to`'s counted ahead by the caller — with none of the other cases' tests (lufact's column, sor's
   * rows: every page of the run but the first). Page locks held. @returns how many pages it did, from `w` on.
   */
  private pointRun(heap: Int32Array, w: number, end: number, from: number, to: number): number {
    const first = heap[to + Shared.FIRST];
    const n = this.pagesOn(heap, w, end - 7, from); // whole pages: their first word at most `end - 8`
    for (let p = lockOf(w), k = 0; k < n; k++, p += PAGE_INTS) {
      heap[p + SHARED_SLOT] = to;
      heap[p + 1] = first;
    }
    if (n > 0) this.dropRefs(from, n);
    return n;
  }

  /**
   * The pages {@link recordRun} recorded word by word in the current {@link accessRuns} (the first {@link nSplit}):
   * the only ones of its pages not uniform after the record, so the only ones {@link merge} is tried on (not a pass
   * over all the pages of the check). A page may be listed twice (two runs ending in it): its second merge finds it
   * merged, or fails again.
   */
  private readonly splitRecorded: number[] = [];
  private nSplit = 0;

  /**
   * The references {@link recordRun} holds for a run, or for the pages of it recorded since its last general page:
   * the dropped ones ({@link flushDrops}), `spare` counted ahead on `to`, and the general page's on `from` (0: none).
   */
  private endRun(to: number, spare: number, from: number): void {
    this.flushDrops();
    if (spare > 0) this.addRefs(to, -spare);
    if (from !== 0) this.addRefs(from, -1);
  }

  /**
   * The Owner case of {@link accessRuns}: are all the Infos of the word whose list head is at heap index `head`
   * ({@link headOf}) this thread's? Then each that conflicts
   * with a plain access of the bytes `mask` with `flags` (0 or WRITE: it conflicts when it has one of those bytes
   * and it or the access writes) is
   * decided by the owner short-circuit (program order, §5.1; an access with `flags` is never transactional).
   * @returns how many Infos it decided so (to be counted by {@link countOwned}), or -1 when some Info is another
   * thread's (nothing decided). Lock held.
   */
  private ownedWord(heap: Int32Array, head: number, flags: number, mask: number): number {
    const t = this.t;
    let own = 0;
    let e = heap[head];
    for (; e !== 0 && heap[e + Info.OWNER] === t; e = heap[e + Info.NEXT]) {
      const f = heap[e + Info.FLAGS];
      if (f & mask && (f | flags) & Access.WRITE) own++;
    }
    return e === 0 ? own : -1;
  }

  /**
   * {@link ownedWord} of the list from head `head`, and, when `both`, of the list after it (a paired page's odd words',
   * `Pair` of `./records.ts`, `head` its even words'): the Infos it decided, or -1 when some Info of either is another
   * thread's. Lock held.
   */
  private ownedPaged(heap: Int32Array, head: number, both: boolean, flags: number, mask: number): number {
    const own = this.ownedWord(heap, head, flags, mask);
    if (!both || own < 0) return own;
    const odd = this.ownedWord(heap, head + 1, flags, mask);
    return odd < 0 ? -1 : own + odd;
  }

  /**
   * Counts `words` accesses of words decided by {@link ownedWord}, with `checks` Infos decided by the owner
   * short-circuit, as {@link shortCircuited} counts them.
   */
  private countOwned(words: number, checks: number): void {
    const counts = this.counts;
    counts[STAT.accesses] += words;
    counts[STAT.checks] += checks;
    counts[STAT.shortCircuitOwner] += checks;
  }

  /**
   * {@link record} of a plain access of the bytes `mask` of the word whose list head is at `head` ({@link headOf})
   * with `flags` (0 or WRITE) at `site`, list position `now`, when the word's list is one Info, this thread's, of exactly this access (bytes and kind) and
   * without an
   * explicit lockset: {@link record} then updates that Info in place (its `pos`, site and alock) and changes nothing
   * else, which this does without the walk (also for FastTrack's record, whose read-exclusive step drops only other
   * threads' reads). Lock held.
   * @returns false, having done nothing, when the list is another.
   */
  private recordOwned(
    heap: Int32Array,
    head: number,
    flags: number,
    site: number,
    mask: number,
    now: number,
  ): boolean {
    if (!this.ownedOnly(heap, head, flags, mask)) return false;
    this.renew(heap, heap[head], now, site);
    return true;
  }

  /**
   * Is the list from head `head` ({@link headOf}) one Info, this thread's, of a plain access of the bytes `mask` with `flags` (0 or
   * WRITE), without an explicit lockset? Then {@link record} of such an access leaves one Info, this thread's, of
   * this access at the current position ({@link recordOwned}). Lock held.
   */
  private ownedOnly(heap: Int32Array, head: number, flags: number, mask: number): boolean {
    const e = heap[head];
    return (
      e !== 0 &&
      heap[e + Info.NEXT] === 0 &&
      heap[e + Info.OWNER] === this.t &&
      heap[e + Info.FLAGS] === (mask | flags) &&
      heap[e + Info.LS] === 0
    );
  }

  /**
   * Page `page` (uniform, its lock held) points to the shared list of header `h`, whose reference for it is counted
   * already ({@link recordRun}); the slot is written before the head (the protocol of {@link shareList}); the page's
   * old list is released (all its Infos: one for {@link ownedOnly}, or a list equal to `h`'s before the record), or
   * its shared list's reference dropped ({@link dropRefs}, batched).
   */
  private pointToRun(heap: Int32Array, page: number, h: number): void {
    const old = heap[page + SHARED_SLOT];
    let e = heap[page + 1];
    heap[page + SHARED_SLOT] = h;
    heap[page + 1] = heap[h + Shared.FIRST];
    if (old !== 0) this.dropRefs(old, 1);
    else
      while (e !== 0) {
        const next = heap[e + Info.NEXT];
        this.release(e);
        e = next;
      }
  }

  /**
   * `n` references dropped from the shared list of header `old`, later: consecutive drops from one list are dropped
   * at once ({@link flushDrops}; a stop before leaves a count too high, a leak).
   */
  private dropRefs(old: number, n: number): void {
    if (old !== this.dropping) {
      this.flushDrops();
      this.dropping = old;
    }
    this.drops += n;
  }

  /** Drops the references {@link dropRefs} keeps. Before the page locks are released. */
  private flushDrops(): void {
    if (this.drops !== 0) this.addRefs(this.dropping, -this.drops);
    this.drops = 0;
  }

  /**
   * Info `e` given the position `now`, the site `site` and the alock of an access recorded in place: the innermost
   * sync-library lock this thread holds (its key's two words), 0 when none.
   */
  private renew(heap: Int32Array, e: number, now: number, site: number): void {
    const held = this.held;
    heap[e + Info.POS] = now;
    heap[e + Info.SITE] = site;
    heap[e + Info.ALOCK_A] = held.length ? held[held.length - 2] : 0;
    heap[e + Info.ALOCK_B] = held.length ? held[held.length - 1] : 0;
  }

  /** Range checks (`../spans.ts`) may use {@link accessRuns} with this checker (Eraser's are left to each access). */
  get rangeChecks(): boolean {
    return this.onAccess === undefined;
  }

  /**
   * Checks and records the access on word `w` (page lock held). @returns true when it conflicts (left in
   * {@link lastConflict}).
   */
  private checkRecord(
    heap: Int32Array,
    w: number,
    mask: number,
    flags: number,
    site: number,
    stopOnRace: boolean,
  ): boolean {
    const c = this.shortCircuited(heap, headOf(heap, w), mask, flags) ? undefined : this.find(w, mask, flags);
    if (c === undefined || !stopOnRace) this.record(w, mask, flags, site);
    this.lastConflict = c; // before onAccess, which performs the access only when no race stops it (../locked.ts)
    if (this.onAccess !== undefined) this.onAccess(w, mask | flags, site);
    return c !== undefined;
  }

  /**
   * Would {@link record} leave the list from head `head` ({@link headOf}) of word `k` (0–7) of its page, whose sites it
   * reads ({@link siteAt}), as it is? When it holds this thread's Info of exactly this access (kind, bytes, `pos`,
   * site, alock; no explicit lockset) and no other Info that the record would change: an element accessed again since
   * this thread's last synchronization. Lock held.
   */
  private unchanged(
    heap: Int32Array,
    head: number,
    k: number,
    mask: number,
    flags: number,
    site: number,
  ): boolean {
    if (!this.sameAccessKept) return false;
    const t = this.t;
    const write = (flags & Access.WRITE) !== 0;
    const same = mask | flags;
    const kindOnly = (flags & Access.ATOMIC) !== 0 && !write;
    const held = this.held;
    let found = false;
    for (let e = heap[head]; e !== 0; e = heap[e + Info.NEXT]) {
      const f = heap[e + Info.FLAGS];
      const own = heap[e + Info.OWNER] === t;
      // the Infos record() updates or drops bytes of (its first condition)
      if (!(f & mask && (write || (own && (f & Access.WRITE) === 0 && (!kindOnly || f === same))))) continue;
      if (
        found ||
        f !== same ||
        !own ||
        heap[e + Info.POS] !== this.now() ||
        siteAt(heap, e, k) !== site ||
        heap[e + Info.LS] !== 0 ||
        heap[e + Info.ALOCK_A] !== (held.length ? held[held.length - 2] : 0) ||
        heap[e + Info.ALOCK_B] !== (held.length ? held[held.length - 1] : 0)
      )
        return false;
      found = true;
    }
    return found;
  }

  /**
   * {@link record} of an access equal to this thread's last one on a word changes nothing ({@link unchanged}); false
   * for a subclass whose record also changes other threads' Infos (FastTrack's read-exclusive).
   */
  protected sameAccessKept = true;

  /**
   * The short-circuits for a whole word at once, its list's head at `head` ({@link headOf}): true when every Info of
   * the word that the access must be checked
   * against is this thread's or decided by {@link proven} (counted like {@link find} counts them). Lock held.
   */
  protected shortCircuited(heap: Int32Array, head: number, mask: number, flags: number): boolean {
    const t = this.t;
    let own = 0;
    let xact = 0;
    let other = 0;
    for (let e = heap[head]; e !== 0; e = heap[e + Info.NEXT]) {
      if (e + Info.SIZE > heap.length) return this.untally();
      const f = heap[e + Info.FLAGS];
      if (!conflicts(f, mask, flags)) continue;
      const u = heap[e + Info.OWNER];
      const d = firstShortCircuits((f & flags & Access.XACT) !== 0, u, t);
      if (d === Decided.Xact) xact++;
      else if (d >= 0) own++;
      else if (this.proven(heap, e, u)) other++;
      else return this.untally();
    }
    const counts = this.counts;
    counts[STAT.accesses]++;
    counts[STAT.checks] += own + xact + other;
    counts[STAT.shortCircuitOwner] += own;
    counts[STAT.shortCircuitXact] += xact;
    this.countTally();
    return true;
  }

  /** Adds the {@link tally} to the counters and clears it. */
  private countTally(): void {
    if (!this.tallied) return;
    const tally = this.tally;
    for (let d = 0; d < tally.length; d++) {
      this.counts[DECIDED + d] += tally[d];
      tally[d] = 0;
    }
    this.tallied = false;
  }

  /** Clears the {@link tally} uncounted. @returns false (not short-circuited). */
  private untally(): boolean {
    if (this.tallied) {
      this.tally.fill(0);
      this.tallied = false;
    }
    return false;
  }

  /**
   * The first Info of the word that conflicts with the access and does not happen before it, its site the one it has
   * on the page's word `k` ({@link siteAt}: the accessed word, when `word` is a uniform page's list). Lock held.
   */
  find(word: number, mask: number, flags: number, k = word & 7): Conflict | undefined {
    let heap = this.s.heap;
    this.counts[STAT.accesses]++;
    const shared = heap[lockOf(word) + SHARED_SLOT] !== 0; // a shared list's Infos are never written (a pair's too)
    for (let e = heap[headOf(heap, word)]; e !== 0; e = heap[e + Info.NEXT]) {
      if (e + Info.SIZE > heap.length) {
        // allocated by another thread after the heap grew past this view
        this.s.refresh();
        heap = this.s.heap;
      }
      if (!conflicts(heap[e + Info.FLAGS], mask, flags)) continue;
      const c = this.check(e, flags, shared);
      if (c) {
        c.site = siteAt(heap, e, k);
        return c;
      }
    }
    return undefined;
  }

  /**
   * Decides whether Info `e` happens before this thread's current point, for an access with `flags`; a conflict
   * when not. Two transactional accesses never race (§5.3, the xact short-circuit). `shared`: `e` is in a shared
   * list ({@link shareList}), where no walk cache is stored.
   */
  private check(e: number, flags: number, shared: boolean): Conflict | undefined {
    const heap = this.s.heap;
    const u = heap[e + Info.OWNER];
    this.counts[STAT.checks]++;
    const d = firstShortCircuits((heap[e + Info.FLAGS] & flags & Access.XACT) !== 0, u, this.t);
    if (d >= 0) {
      this.counts[DECIDED + d]++;
      return undefined;
    }
    return this.decide(e, u, shared);
  }

  /**
   * {@link check} of Info `e` of another owner `u`: the alock short-circuit and the happens-before memo
   * ({@link proven}), then direct ownership transfer when `e` is at most DIRECT_TRANSFER_MAX_DISTANCE cells back,
   * then the full lockset walk (PLDI'07 §5.1, Figure 8 Check-Happens-Before), whose result is cached in `e` unless
   * `shared` (see {@link check}).
   */
  protected decide(e: number, u: number, shared: boolean): Conflict | undefined {
    const s = this.s;
    const heap = s.heap;
    if (this.proven(heap, e, u)) {
      this.countTally();
      return undefined;
    }
    const pos = heap[e + Info.POS];
    const id = heap[e + Info.LS];
    const from = id === 0 ? pos : locksetStart(s, id);
    // the explicit lockset read once from the heap (a walk copies it: `LiveLockset.load`), and how far a proof from
    // it reaches (`locksetReach`)
    const explicit = id === 0 ? undefined : locksetOf(s, id);
    const reach = id === 0 ? -1 : locksetReach(s, id);
    const counts = this.counts;
    const end = rawAtomics.load(s.ctl, CTL.listEnd);
    if (end - from <= DIRECT_TRANSFER_MAX_DISTANCE) {
      this.start(u, explicit);
      const reached = this.walk(from, end, u, u, reach);
      counts[STAT.directTransferCells] += this.walked;
      if (reached) {
        counts[STAT.directTransfer]++;
        this.remember(u, Math.max(pos, this.provenTo));
        return undefined;
      }
    }
    counts[STAT.lockset]++;
    counts[STAT.walks]++;
    const r = this.refute(u, pos, from, end, explicit);
    if (r !== undefined)
      return {
        owner: u,
        flags: heap[e + Info.FLAGS],
        site: heap[e + Info.SITE],
        detail: `T${this.t} ∉ LS of T${u}'s earlier access (list position ${r.pos}), walked to now; this access's LS is a subset of it`,
        lockset: [...r.ls.keys],
      };
    counts[STAT.walkCells] += end - from;
    this.start(u, explicit);
    const hb = this.walk(from, end, -1, u, reach);
    if (this.walkEnd - from >= WALK_CACHE_MIN_CELLS && !shared) this.cache(e);
    if (hb) {
      this.remember(u, Math.max(pos, this.provenTo));
      return undefined;
    }
    this.keepRefutation(u, pos, from, end);
    return {
      owner: u,
      flags: heap[e + Info.FLAGS],
      site: heap[e + Info.SITE],
      detail: `lockset walk over ${end - from} synchronization events: T${this.t} ∉ LS`,
      lockset: [...this.ls.keys],
    };
  }

  /**
   * The refutation memo (the happens-before memo's converse): a full walk found that an access of u at `pos` does not
   * happen before this thread's current point; its lockset, carried forward over the cells appended since (a short
   * walk), decides a later check of an access of u at a `pos` as late or later without its own walk. Exact: the two
   * locksets start with u at their positions (or, explicit, hold what a walk from there holds: §5.4 evaluates exactly,
   * and a pruned one holds every live thread, this one included), u is never removed, so at the later position the
   * earlier one holds all the later one holds, and the rules are monotone (`./batch.ts` checks that they distribute):
   * so it does at every later cell, and this thread outside the larger lockset is outside the smaller. When the
   * carried lockset takes this thread in, the memo of u is dropped (threads never leave a lockset) and the check walks.
   * Used only when the memo's cells start at or after the Info's walk start `from`: the Info's page lock, held, keeps
   * the collector from recycling those (`../memory/sync-list.ts`). A racing reader of a writer's batch (sharedmap's
   * test.js with its word list cut to 20,000, under `--on-race=report`: 83,567 walks of 58k cells) then walks each cell
   * about once (`test/live/refutation-memo.test.ts`).
   * @returns the memo that refutes the access (its lockset carried to `end`), or undefined: the check must walk.
   */
  private refute(
    u: number,
    pos: number,
    from: number,
    end: number,
    explicit: Set<number> | undefined,
  ): Refutation | undefined {
    const r = this.refuted.get(u);
    if (r === undefined || pos < r.pos || r.end < from || explicit?.has(threadKey(this.t))) return undefined;
    this.counts[STAT.walkCells] += end - r.end;
    if (this.walk(r.end, end, -1, -1, -1, r.ls)) {
      this.refuted.delete(u);
      return undefined;
    }
    r.end = end;
    return r;
  }

  /**
   * After a full walk from an access of u at `pos` (walk start `from`) to `end` that did not reach this thread: keeps
   * its lockset ({@link ls}) as u's refutation memo ({@link refute}), unless the memo held is of an access as early or
   * earlier and usable from this walk's start on.
   */
  private keepRefutation(u: number, pos: number, from: number, end: number): void {
    const r = this.refuted.get(u);
    if (r !== undefined && r.pos <= pos && r.end >= from) return;
    const ls = r?.ls ?? new LiveLockset();
    ls.load(this.ls.keys, this.t);
    this.refuted.set(u, { pos, end, ls });
  }

  /**
   * Makes {@link ls} the lockset Info's walk starts from: `{u}` at its access, or its explicit lockset (§5.4,
   * `../memory/locksets.ts` {@link locksetOf}; copied), for a walk deciding whether the access happens-before this
   * thread's current point.
   */
  private start(u: number, explicit: Set<number> | undefined): void {
    if (explicit === undefined) this.ls.reset(threadKey(u), this.t);
    else this.ls.load(explicit, this.t);
  }

  /**
   * Join of thread `u` by this thread, called right after its join cell is appended: every access of `u` happens
   * before this thread's current point (PLDI'07 Figure 5, join; Node never reuses a threadId), so the happens-before
   * memo proves all of them without a walk.
   */
  joined(u: number): void {
    this.remember(u, Number.POSITIVE_INFINITY);
  }

  /** Happens-before memo: an access of `u` at `pos` happens before this thread's current point. */
  private remember(u: number, pos: number): void {
    if (u >= this.known.length) {
      const k = new Float64Array(Math.max(u + 1, this.known.length * 2)).fill(-1);
      k.set(this.known);
      this.known = k;
    }
    if (pos > this.known[u]) this.known[u] = pos;
  }

  /**
   * The later short-circuits of §5.1 (`../../detectors/goldilocks/short-circuit.ts` {@link laterShortCircuits}) for
   * Info `e` of another owner `u` (the first ones, {@link firstShortCircuits}, failed: not both transactional,
   * another owner): the alock held by this thread, then the happens-before memo; tallied (see {@link tally}). Lock held.
   */
  protected proven(heap: Int32Array, e: number, u: number): boolean {
    const known = this.known;
    const d = laterShortCircuits(
      this.alockHolder(heap, e),
      this.t,
      heap[e + Info.POS],
      u < known.length ? known[u] : -1,
    );
    if (d < 0) return false;
    this.tally[d]++;
    this.tallied = true;
    return true;
  }

  /** This thread if it holds the sync-library lock held at the access of Info `e` (its alock), else -1. */
  private alockHolder(heap: Int32Array, e: number): number {
    const la = heap[e + Info.ALOCK_A];
    if (la === 0) return -1;
    const lb = heap[e + Info.ALOCK_B];
    const held = this.held;
    for (let i = 0; i < held.length; i += 2) if (held[i] === la && held[i + 1] === lb) return this.t;
    return -1;
  }

  /**
   * The walk cache: Info `e` (its word's lock held) starts from now on at {@link walkEnd} with the lockset the last
   * full walk had there ({@link ls}: every cell before walkEnd applied, none after).
   */
  private cache(e: number): void {
    const s = this.s;
    const id = storeLockset(s, this.ls.keys, this.walkEnd);
    const heap = s.heap;
    const old = heap[e + Info.LS];
    heap[e + Info.LS] = id;
    if (old !== 0) releaseLockset(s, old);
    this.counts[STAT.walksCached]++;
  }

  /** Cells applied by the last {@link walk}. */
  private walked = 0;
  /** Where the last {@link walk} stopped: the list's end, or the position after the cell that added its thread. */
  private walkEnd = 0;
  /**
   * After a {@link walk} that reached its target with an owner given: the largest `pos` up to which every access of
   * the owner happens before this thread's current point by the cell through which this thread entered (-1: none
   * known beyond the Info's own `pos`).
   */
  private provenTo = -1;
  /**
   * During a {@link walk} with an owner: per target y, the position of the owner's last cell that added y (a release,
   * an atomic write, a send, a fork…: `addsTarget` of `../../model/sync.ts`) with no atomic write of y by another
   * thread after it.
   */
  private readonly ownerAdds = new Map<number, number>();

  /**
   * Apply-Lockset-Rules to {@link ls} (its start set by {@link start}) for the cells at [from, end) — the rules of
   * Figure 5, `../../detectors/goldilocks/rules.ts` — over the list's chunks (`../memory/state.ts`); with `other` ≥ 0
   * (the Info's owner), direct ownership transfer: only the cells of the owner and this thread, and the atomic
   * writes. Sets {@link walked} and {@link walkEnd}.
   *
   * With `owner` ≥ 0 (the Info's owner, in its lockset from the start: no rule removes a thread), the walk also finds
   * how far the proof reaches ({@link provenTo}): when this thread enters through y, added by the owner's cell at
   * position r ({@link ownerAdds}) and not removed since (only an atomic write of another thread removes, rule 3′),
   * then a walk from any access of the owner with `pos` ≤ r — before r in the owner's program order, since `pos` is
   * the list's end after the owner's last synchronization — adds y at r and this thread at the same cell: each such
   * access happens before this thread's current point (Theorem 1), not only the Info's. The memo ({@link remember})
   * then decides them without a walk: one walk for a whole batch handed over through one lock (a worker's buckets of
   * a map, then read by another: `bench/eager/buckets.mjs` with workers). From an explicit lockset with a `reach`
   * (`../memory/locksets.ts` `locksetReach`, ≥ 0), this thread entering through one of its keys, not removed since,
   * or held from the start, proves the owner's accesses up to `reach`: a collection's record does not tell where the
   * owner added its keys, but every access up to `reach` held them all at the record's start.
   * @returns true when the lockset's target thread enters it (happens-before; the walk stops after that cell), else
   * false with the final lockset in {@link ls}.
   */
  private walk(from: number, end: number, other: number, owner: number, reach = -1, ls = this.ls): boolean {
    const s = this.s;
    // the collection's invariant (`../memory/sync-list.ts`): no walk reads a collected cell
    if (from < s.ctl[CTL.listBase])
      throw new Error(
        `goldilocks: internal: a walk from list position ${from}, collected up to ${s.ctl[CTL.listBase]}`,
      );
    mapCells(s, from, end);
    const list = s.list;
    const chunks = s.chunks;
    const t = this.t;
    const adds = this.ownerAdds;
    adds.clear();
    if (owner >= 0 && reach >= 0) for (const k of ls.keys) adds.set(k, reach);
    this.provenTo = ls.reached && owner >= 0 ? reach : -1;
    let walked = 0;
    const stop = ls.reached ? from : end; // an explicit lockset that holds the target already
    for (let p = from; p < stop; ) {
      const next = Math.min(stop, (p | CHUNK_MASK) + 1);
      const first = chunks[p >> CHUNK_SHIFT] + (p & CHUNK_MASK) * CELL;
      for (let c = first, last = first + (next - p) * CELL; c < last; c += CELL) {
        const kind = list[c];
        const th = list[c + 1];
        if (other >= 0 && !appliesInDirectTransfer(kind, th, t, other)) continue;
        walked++;
        if (kind === COMMIT) {
          this.applyCommitCell(ls, th, list[c + 2], list[c + 3]);
          if (ls.reached) return this.reached(walked, p + (c - first) / CELL, -1);
          continue;
        }
        const y = objectKey(list[c + 2], list[c + 3]);
        applyRule(ls, kind, th, y, null);
        if (owner >= 0) {
          if (th === owner) {
            if (addsTarget(kind)) adds.set(y, p + (c - first) / CELL);
          } else if (kind === ATOMIC_WRITE) adds.delete(y); // of `removes`' kinds, the one that drops a held y
        }
        if (ls.reached) {
          const at = p + (c - first) / CELL;
          // entered by the owner's fork of this thread (th = owner), or through y the owner added
          return this.reached(walked, at, owner < 0 ? -1 : th === owner ? at : (adds.get(y) ?? -1));
        }
      }
      p = next;
    }
    this.walked = walked;
    this.walkEnd = stop;
    return ls.reached;
  }

  /** {@link walk}'s end when its thread entered at the cell at `at`: sets its results. @returns true. */
  private reached(walked: number, at: number, provenTo: number): boolean {
    this.walked = walked;
    this.walkEnd = at + 1;
    this.provenTo = provenTo;
    return true;
  }

  /**
   * Rule 9 for a commit cell of thread `u` (`../stm-observer.ts`) applied to `ls`: R ∪ W are the `n` word heap indices
   * from heap index `at` (each word a data variable, `./lockset.ts` {@link DATA}).
   */
  private applyCommitCell(ls: LiveLockset, u: number, at: number, n: number): void {
    if (at + n > this.s.heap.length) this.s.refresh();
    applyCommit(ls, u, this.s.heap, at, at + n);
  }

  /**
   * Updates the word's Infos after an access at list position `pos` (write: replaces every Info on its bytes;
   * plain read: this thread's reads on its bytes; atomic read: this thread's atomic reads of the same range only,
   * since a later write of that range does not race with it but may with the thread's other reads — ECMA-262: a
   * load orders nothing before a later store). A plain access whose only difference from one of this thread's Infos
   * is the bytes (same kind, `pos`, site and alock; other bytes) widens that Info's mask instead of adding one: every
   * check and report reads the same from one Info as from two that differ in bytes only, and a word written or read
   * a byte at a time (a `Uint8Array` loop) keeps one Info per thread and kind, not eight. Lock held.
   */
  record(word: number, mask: number, flags: number, site: number): void {
    const head = this.headFor(word);
    const heap = this.s.heap;
    const t = this.t;
    const write = (flags & Access.WRITE) !== 0;
    const same = mask | flags;
    const kindOnly = (flags & Access.ATOMIC) !== 0 && !write; // an atomic read replaces its own kind only
    const now = this.now();
    const held = this.held;
    const alockA = held.length ? held[held.length - 2] : 0;
    const alockB = held.length ? held[held.length - 1] : 0;
    let reuse = 0; // this thread's Info of exactly this access kind and bytes: updated in place
    let widen = 0; // this thread's Info of this plain access on other bytes: its mask widened
    let prev = head - Info.NEXT; // heap[prev + NEXT] is the head
    for (let e = heap[head]; e !== 0; ) {
      const next = heap[e + Info.NEXT];
      const f = heap[e + Info.FLAGS];
      if (
        f & mask &&
        (write || (heap[e + Info.OWNER] === t && (f & Access.WRITE) === 0 && (!kindOnly || f === same)))
      ) {
        if (reuse === 0 && f === same && heap[e + Info.OWNER] === t) {
          reuse = e;
          prev = e;
          e = next;
          continue;
        }
        if (this.dropBytes(heap, prev, e, f, mask)) {
          e = next;
          continue;
        }
      } else if (
        widen === 0 &&
        (f & ~Access.MASK) === flags &&
        (flags & Access.ATOMIC) === 0 &&
        (f & mask) === 0 &&
        heap[e + Info.OWNER] === t &&
        heap[e + Info.POS] === now &&
        heap[e + Info.SITE] === site &&
        heap[e + Info.ALOCK_A] === alockA &&
        heap[e + Info.ALOCK_B] === alockB
      )
        widen = e;
      prev = e;
      e = next;
    }
    if (reuse === 0 && widen !== 0) {
      heap[widen + Info.FLAGS] |= mask;
      return;
    }
    const n = reuse || this.takeInfo();
    if (reuse && heap[n + Info.LS] !== 0) {
      const old = heap[n + Info.LS];
      heap[n + Info.LS] = 0;
      releaseLockset(this.s, old);
    }
    this.renew(heap, n, now, site);
    if (reuse) return;
    heap[n + Info.FLAGS] = same;
    heap[n + Info.OWNER] = t;
    heap[n + Info.NEXT] = heap[head];
    heap[head] = n;
  }

  /**
   * The list position of the commit cell whose accesses are being checked (`../stm-observer.ts`), else -1: their
   * Infos start at the commit cell itself, so that walks from them apply its rule 9 (add R ∪ W).
   */
  commitPos = -1;

  /** The accesses of the commit at {@link commitPos} are checked (`../stm-observer.ts`): it is over. */
  endCommit(): void {
    this.commitPos = -1;
  }

  /** The `pos` of an access recorded now: {@link pos}, or the commit cell's for a transaction's access. */
  protected now(): number {
    return this.commitPos >= 0 ? this.commitPos : this.pos;
  }

  /**
   * Removes `bytes` from the byte mask of Info `e` (flags `f`), which follows `prev` in its word's list (`prev` may be
   * the word's head slot less NEXT, `headOf(heap, word) - NEXT`); when no byte is left, unlinks it and frees it ({@link release}).
   * @returns true if `e` was unlinked (`prev` stays the predecessor of the next Info).
   */
  protected dropBytes(heap: Int32Array, prev: number, e: number, f: number, bytes: number): boolean {
    const rest = f & Access.MASK & ~bytes;
    if (rest !== 0) {
      heap[e + Info.FLAGS] = (f & ~Access.MASK) | rest;
      return false;
    }
    heap[prev + Info.NEXT] = heap[e + Info.NEXT];
    this.release(e);
    return true;
  }

  /** Adds the local counters to the shared ones and clears them. */
  flush(): void {
    for (let i = 0; i < this.counts.length; i++) {
      if (this.counts[i] !== 0) addStat(this.s.ctl, i, this.counts[i]);
      this.counts[i] = 0;
    }
  }

  /**
   * The name of a lockset key, for reports: `T3`, `lock@sab#1+8`, `atomic@sab#1+8:4`, `message#5`,
   * `annotation#<hash>`...
   */
  static keyName(key: number): string {
    if (key < TWO32) return `T${key}`;
    if (key < DATA * 2 ** 10) return `xact-word#${key - DATA}`;
    const { tag, id, b } = keyParts(key);
    switch (tag) {
      case Tag.WaiterList:
        return `waiters@sab#${id}+${b}`;
      case Tag.Named:
        return `lock@sab#${id}+${b}`;
      case Tag.Atomic:
        return `atomic@sab#${id}+${Math.floor(b / 4)}:${1 << (b & 3)}`;
      case Tag.Message:
        return `message#${id * TWO32 + b}`;
      case Tag.Broadcast:
        return `broadcast#${b}`;
      case Tag.Annotation:
        return `annotation#${(id * TWO32 + b).toString(16)}`;
      default:
        return `volatile@sab#${id}+${b}`;
    }
  }
}
