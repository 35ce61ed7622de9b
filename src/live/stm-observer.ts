/**
 * Transactions of `goldilocks/stm` (`../stm/`) as the paper's commit events (Goldilocks, PLDI'07 §5.3; issue 23
 * §2). Before a commit locks its ownership records, the STM hands this thread the locations the transaction read
 * and will write (`../stm/observer.ts` `prepare`), resolved here to words and R ∪ W with no lock held, so that the
 * records are held only for what must be ordered; at the commit point this thread then
 * 1. appends one `commit(R, W)` cell (kind `SyncKind.Commit`, Figure 5 rule 9) whose `a`, `b` words are where
 *    R ∪ W lies in the shadow heap and how many words it has — a data variable is an 8-byte word of a buffer,
 *    the shadow's granularity, named by its word's address (`./shadow/table.ts`) (`./shadow/lockset.ts` `DATA`);
 * 2. checks R as reads and W as writes with the `XACT` flag (Figure 8 Handle-Action lines 24–28), their Infos
 *    starting at the commit cell so that walks from them apply its rule 9 (`Shadow.commitPos`), then ends the
 *    commit (`Shadow.endCommit`). Two transactional accesses never race (the xact short-circuit); a transactional
 *    and a plain one can (Example 4). The online peers take the same cell and checks: FastTrack joins the words'
 *    clocks at the cell and ticks its epoch at `endCommit` (`./shadow/fasttrack.ts`), Eraser gives the accesses
 *    the pseudo-lock TL (`./shadow/eraser.ts`).
 *
 * **Atomic with the cell.** The paper checks a commit's accesses at its commit point in the synchronization order
 * (§5.3; Figure 8 handles `commit(R, W)` as one action). The records TL2 locks are those of W only (a reader blocks
 * no writer), so they do not keep other threads off R; what does is the words' check locks: the commit takes the
 * check locks of all the pages of R ∪ W ({@link lockOf}), ascending, when it is prepared (before its records and the
 * list lock), appends its cell under the list lock, then checks and records its accesses with those locks still held
 * (`Shadow.accessHeld`) and only then releases them. Every access of a word of R ∪ W by another thread — plain,
 * atomic, a range, another commit — is checked and recorded under that word's check lock, so it is checked either
 * before the cell (and the commit's checks see its Info) or after the commit's records (and its check sees them):
 * none comes between. Without this, a commit appended at p1 and checked later missed a race (a later commit on x
 * replaced, in between, the Info of a plain write it did not follow) and reported a false one (a plain write ordered
 * after it through a later commit and a lock, recorded in between); test/live/stm-commit-point.test.ts forces both
 * interleavings. Cells of other threads appended between the cell and the checks change no verdict: a walk's
 * lockset gains this thread only at this thread's own cells (the argument of `Shadow.pos`).
 *
 * **No deadlock.** Locks are taken in one order: check locks of pages (ascending), then ownership records
 * (ascending, `../stm/commit.ts`), then the list lock; nobody waits for a lock while holding a later one of that
 * order. Records: only a commit waits for one (`lockRecord`), holding its pages and lower records; a record's holder
 * is a commit that holds all its pages already (taken in `prepare`, before any record) and waits only for a higher
 * record or the list lock (TL2's `validate` reads records without waiting). The list lock: its holders wait for no
 * page and no record (appending a cell, and FastTrack's or Eraser's `onCell`, take neither; the eager collector,
 * `./shadow/eager.ts`, takes the list lock and then each page with nothing else held, and a commit defers it until
 * it has released its pages and records, `released`). Pages: holders of several take them ascending (range checks,
 * `Shadow.accessRuns`, and commits); every other holder of a page waits for no other page (an element access,
 * `accessRun`, holds one page at a time; an atomic operation one page, then the list lock,
 * `./intercept/atomics.ts`). Uniform pages are split and merged under their page's lock (`Shadow.accessHeld`),
 * taking no other. Under `stopOnRace` the race that stops the commit is reported with its pages and records still
 * held (`Context.race` then takes only the race table's lock, `./races.ts`, whose holders wait for nothing), so that
 * an excused one lets the checks go on without waiting for the pages again; other races are reported after the
 * locks are released. So the waits-for graph has no cycle; `--detector fasttrack|eraser` share this path. Holding the pages while waiting for records also keeps the
 * records' hold short: a commit holds its records only for its validation, its cell, its checks and its write-back.
 *
 * The STM performs its own atomic operations with the runtime's unpatched `Atomics` (`rawAtomics`): its version
 * clock, ownership records and write-back are not program synchronization, or every transaction would order
 * every later one and hide Example 4's race. Aborted attempts report nothing. Words rather than bytes are the
 * variables, so two transactions touching different bytes of one word are ordered (an extra edge: it may hide a
 * race, never report a false one). The R ∪ W records stay in the shadow heap for the run.
 */
import type { Runtime } from '../hooks/contract.js';
import { defineLink, STM_LINK } from '../hooks/libraries.js';
import { SyncKind } from '../model/sync.js';
import { settings } from '../node/settings.js';
import type { AccessLog, StmLibrary, StmObserver } from '../stm/observer.js';
import type { Callee, Context } from './context.js';
import { allocHeap, appendCell, lockPage, rawAtomics, unlockPage } from './memory/state.js';
import { collectList } from './shadow/eager.js';
import { Access, type Conflict } from './shadow/goldilocks.js';
import { lockOf, PAGE_INTS } from './shadow/table.js';

/** Words found by a scan up to this many; past it, through a map. */
const SCANNED = 16;

/**
 * The words of one access log (`buffer, byteIndex (a multiple of 8), mask` triples), masks merged per word, in
 * first-appearance order: per word its address (`./shadow/table.ts`), buffer id, word index in the buffer and byte mask, at positions
 * 0 … length − 1. One per thread and log kind, refilled at each commit: its arrays are overwritten, never truncated
 * (no allocation per commit once they have grown).
 */
class Words {
  length = 0;
  readonly word: number[] = [];
  readonly id: number[] = [];
  readonly w: number[] = [];
  readonly mask: number[] = [];
  private readonly index = new Map<number, number>();

  fill(ctx: Context, log: AccessLog): void {
    if (this.length >= SCANNED) this.index.clear();
    this.length = 0;
    // the last two buffers met and their ids and word tables: a transaction's accesses alternate between few buffers
    let buffer: unknown;
    let id = 0;
    let base = 0;
    let other: unknown;
    let otherId = 0;
    let otherBase = 0;
    for (let i = 0; i < log.length; i += 3) {
      if (log[i] !== buffer) {
        const b = buffer;
        const bi = id;
        const bb = base;
        buffer = log[i];
        if (buffer === other) {
          id = otherId;
          base = otherBase;
        } else {
          id = ctx.idOf(buffer as SharedArrayBuffer);
          base = ctx.baseOf(id);
        }
        other = b;
        otherId = bi;
        otherBase = bb;
      }
      const w = (log[i + 1] as number) / 8;
      const word = base + w;
      const k = this.indexOf(word);
      if (k >= 0) {
        this.mask[k] |= log[i + 2] as number;
        continue;
      }
      const p = this.length++;
      this.word[p] = word;
      this.id[p] = id;
      this.w[p] = w;
      this.mask[p] = log[i + 2] as number;
      // from SCANNED words on, found through the map: all of them are in it
      if (p === SCANNED - 1) for (let q = 0; q <= p; q++) this.index.set(this.word[q], q);
      else if (p >= SCANNED) this.index.set(word, p);
    }
  }

  /** The position of heap word `word`, or −1. */
  indexOf(word: number): number {
    const n = this.length;
    if (n >= SCANNED) return this.index.get(word) ?? -1;
    const words = this.word;
    for (let j = 0; j < n; j++) if (words[j] === word) return j;
    return -1;
  }
}

/** Bytes set in an 8-bit mask. */
const bytesIn = (mask: number): number => {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
};

/**
 * Inserts `page` into the ascending `pages[0 … n − 1]` unless it is there. @returns the new length.
 */
function insertPage(pages: number[], n: number, page: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pages[mid] < page) lo = mid + 1;
    else hi = mid;
  }
  if (lo < n && pages[lo] === page) return n;
  for (let k = n; k > lo; k--) pages[k] = pages[k - 1];
  pages[lo] = page;
  return n + 1;
}

/**
 * Observes `goldilocks/stm` in the thread of `ctx`: defines the STM's link (`../hooks/libraries.ts`), which the STM
 * calls when the program loads it in this thread, if ever (the runtime loads none of it); the link then makes
 * `STM#atomic` a sited method, so that a commit names its call site without capturing a stack
 * (`Sites.callerSite`), and sets the STM's observer ({@link stmObserver}). With `GOLDILOCKS_STM=internals` (a
 * benchmark setting, bench/stm.ts) no link: the STM then uses the patched `Atomics` and reports no commit, so its
 * version clock, ownership records and write-back are checked as the program's own synchronization and atomic
 * accesses (what PLDI'07 §6.1 compares with, "without taking transactions into account"; it hides Example 4's race).
 * @returns the runtime's `sitedLater`: `atomic`, and the set the link adds `STM#atomic` to; undefined without a link.
 */
export function observeStm(ctx: Context): Runtime['sitedLater'] {
  if (settings.GOLDILOCKS_STM === 'internals') return undefined;
  const methods = new Set<unknown>();
  defineLink<StmLibrary>(STM_LINK, (stm) => {
    methods.add(stm.atomic); // sited before the STM's code can run in this thread
    stm.setStmObserver(stmObserver(ctx, stm.atomic));
  });
  return { names: ['atomic'], methods };
}

/**
 * The observer of the commits of the STM whose `STM#atomic` is `atomic`, for the thread of `ctx` (see the file
 * header).
 */
export function stmObserver(ctx: Context, atomic: Callee): StmObserver {
  const { s, shadow, t } = ctx;
  const r = new Words();
  const w = new Words();
  /** R ∪ W of the commit being prepared (`rw[0 … rwLength − 1]`): the words read, then those written and not read. */
  const rw: number[] = [];
  let rwLength = 0;
  /**
   * Where {@link prepare} copies R ∪ W in the shadow heap for the commit's cell: `rwRoom` words at `rwAt`, allocated
   * before the page locks are taken (not in the critical section); an attempt that fails leaves them to the next.
   */
  let rwAt = 0;
  let rwRoom = 0;
  /** The `validate` of the commit being reported ({@link commit}), for {@link appendCommit}. */
  let validateCommit: () => boolean = () => false;
  /** The pages of R ∪ W (`pages[0 … nPages − 1]`, ascending, each once): their check locks are held from `prepare` on. */
  const pages: number[] = [];
  let nPages = 0;
  /** The site of the committing `atomic` call, found by {@link prepare}. */
  let site = 0;
  /** A collection of the list deferred by a commit until it has released its records. */
  let collect = false;
  /** The conflicts found by {@link checkWords}, and the positions of their words (as `checkWords` numbers them). */
  const found: Conflict[] = [];
  const foundAt: number[] = [];
  /** Empties {@link found} (a store to an array's length costs a runtime call, even of the length it has). */
  const clearFound = (): void => {
    if (found.length === 0) return;
    found.length = 0;
    foundAt.length = 0;
  };
  /** A commit's word at position `k` (the words read first, then those written): its Words, index there, flags. */
  const wordsAt = (k: number): Words => (k < r.length ? r : w);
  const indexAt = (k: number): number => (k < r.length ? k : k - r.length);
  const flagsAt = (k: number): number => (k < r.length ? Access.XACT : Access.WRITE | Access.XACT);
  const lockPages = (): void => {
    for (let k = 0; k < nPages; k++) {
      if (pages[k] + PAGE_INTS > s.heap.length) s.refresh();
      lockPage(s, pages[k]); // its uncontended case is one WebAssembly compare-exchange, as a range check's
    }
  };
  const unlockPages = (): void => {
    for (let k = 0; k < nPages; k++) unlockPage(s, pages[k]);
  };
  /**
   * The logs resolved to words and pages, then the pages' check locks taken: before the attempt locks its records
   * (`StmObserver.prepare`; released by {@link commit}, or by `cancel` when the attempt fails before it).
   */
  const prepare = (reads: AccessLog, writes: AccessLog): void => {
    r.fill(ctx, reads);
    w.fill(ctx, writes);
    let n = 0;
    for (let k = 0; k < r.length; k++) rw[n++] = r.word[k];
    for (let k = 0; k < w.length; k++) if (r.indexOf(w.word[k]) < 0) rw[n++] = w.word[k];
    rwLength = n;
    if (n > rwRoom) {
      rwAt = allocHeap(s, n);
      rwRoom = n;
    }
    if (rwAt + n > s.heap.length) s.refresh();
    const heap = s.heap;
    for (let j = 0; j < n; j++) heap[rwAt + j] = rw[j];
    nPages = 0;
    for (let k = 0; k < n; k++) nPages = insertPage(pages, nPages, lockOf(rw[k]));
    // the site of the committing `atomic` call (nested calls have returned: the outermost commits): a rewritten
    // call's static site (STM#atomic is a sited method), else the frame below it
    site = ctx.callerSite(atomic);
    // before the records: a commit waits for no record while holding one that another commit waits for a page on
    lockPages();
  };
  /**
   * Checks and records the commit's words from position `from` (positions 0 … r.length − 1 the words read, then
   * those written), their pages held, each conflict into {@link found}; with `stopOnRace` it stops after the first
   * (its access not recorded) — but for the word at `excused`, recorded whatever it conflicts with.
   * @returns the position after the last word checked.
   */
  const checkWords = (from: number, excused: number): number => {
    const total = r.length + w.length;
    const stop = ctx.stopOnRace;
    for (let k = from; k < total; k++) {
      const words = wordsAt(k);
      const j = indexAt(k);
      const c = shadow.accessHeld(words.word[j], words.mask[j], flagsAt(k), site, stop && k !== excused);
      if (c === undefined || k === excused) continue;
      found.push(c);
      foundAt.push(k);
      if (stop) return k + 1;
    }
    return total;
  };
  /**
   * Reports the conflicts {@link found} (then cleared), each at its first racing byte (`Context.race`: throws or
   * aborts under `stopOnRace` unless excused). @returns whether there was one and the last one was excused.
   */
  const report = (): boolean => {
    let excused = false;
    for (let i = 0; i < found.length; i++) {
      const k = foundAt[i];
      const words = wordsAt(k);
      const j = indexAt(k);
      const mask = words.mask[j];
      const common = mask & found[i].flags;
      excused = ctx.race(
        found[i],
        words.id[j],
        words.w[j] * 8 + (31 - Math.clz32(common & -common)),
        bytesIn(mask),
        flagsAt(k),
        site,
        'stm.atomic',
        commit,
      );
    }
    clearFound();
    return excused;
  };
  /**
   * The commit's cell, list lock held, if its validation passes there: validated where it is ordered, so that no
   * commit reported before it wrote what it read (`../stm/commit.ts`). @returns its position, or −1.
   */
  const appendCommit = (): number => {
    const p = validateCommit() ? appendCell(s, SyncKind.Commit, t, rwAt, rwLength) : -1;
    // the list's collection (§5.4) waits until the commit has released its records (`released`): other
    // transactions on them would wait for all of it (a later cell sets gcDue again if this one is lost)
    collect ||= s.gcDue;
    s.gcDue = false;
    return p;
  };
  /**
   * The commit point, the records it writes locked: the prepared R ∪ W as one cell, then its checks, atomically with
   * respect to every other access of R ∪ W (see the file header).
   */
  const commit = (_reads: AccessLog, _writes: AccessLog, validate: () => boolean): boolean => {
    clearFound();
    validateCommit = validate;
    try {
      const pos = ctx.listLocked(appendCommit);
      if (pos < 0) {
        unlockPages();
        return false;
      }
      rwRoom = 0; // the cell's words now
      shadow.commitPos = pos;
    } catch (e) {
      unlockPages();
      throw e;
    }
    try {
      try {
        for (let from = 0, excused = -1; ; ) {
          from = checkWords(from, excused);
          // under `stopOnRace` the first race found stops the commit (`Context.race` throws), unless it is excused:
          // then its access happens after all, and the checks go on from it. Reported with the pages still held:
          // waiting for them again while holding the ownership records could deadlock (see the file header)
          if (!ctx.stopOnRace || !report()) break;
          excused = from - 1;
          from = excused;
        }
      } finally {
        unlockPages();
      }
      if (!ctx.stopOnRace) report(); // with no lock held
    } finally {
      shadow.endCommit();
    }
    return true;
  };
  const released = (): void => {
    if (!collect) return;
    collect = false;
    collectList(s, shadow);
  };
  return { atomics: rawAtomics, prepare, cancel: unlockPages, commit, released };
}
