/**
 * Transactions of `goldilocks/stm` (`../stm/`) as the paper's commit events (Goldilocks, PLDI'07 §5.3; issue 23
 * §2). Before a commit locks its ownership records, the STM hands this thread the locations the transaction read
 * and will write (`../stm/observer.ts` `prepare`), resolved here to words and R ∪ W with no lock held, so that the
 * records are held only for what must be ordered; at the commit point this thread then
 * 1. appends one `commit(R, W)` cell (kind `SyncKind.Commit`, Figure 5 rule 9) whose `a`, `b` words are where
 *    R ∪ W lies in the shadow heap and how many words it has — a data variable is an 8-byte word of a buffer,
 *    the shadow's granularity, named by its word's heap index (`./shadow/lockset.ts` `DATA`);
 * 2. checks R as reads and W as writes with the `XACT` flag (Figure 8 Handle-Action lines 24–28), their Infos
 *    starting at the commit cell so that walks from them apply its rule 9 (`Shadow.commitPos`), then ends the
 *    commit (`Shadow.endCommit`). Two transactional accesses never race (the xact short-circuit); a transactional
 *    and a plain one can (Example 4). The online peers take the same cell and checks: FastTrack joins the words'
 *    clocks at the cell and ticks its epoch at `endCommit` (`./shadow/fasttrack.ts`), Eraser gives the accesses
 *    the pseudo-lock TL (`./shadow/eraser.ts`).
 *
 * The STM performs its own atomic operations with the runtime's unpatched `Atomics` (`rawAtomics`): its version
 * clock, ownership records and write-back are not program synchronization, or every transaction would order
 * every later one and hide Example 4's race. Aborted attempts report nothing. Words rather than bytes are the
 * variables, so two transactions touching different bytes of one word are ordered (an extra edge: it may hide a
 * race, never report a false one). The R ∪ W records stay in the shadow heap for the run.
 */
import { SyncKind } from '../model/sync.js';
import { settings } from '../node/settings.js';
import { type AccessLog, setStmObserver } from '../stm/observer.js';
import { STM } from '../stm/stm.js';
import type { Callee, Context } from './context.js';
import { allocHeap, appendCell, rawAtomics } from './memory/state.js';
import { collectList } from './shadow/eager.js';
import { Access } from './shadow/goldilocks.js';

/** `STM.prototype.atomic`: a commit's site is its caller's frame. */
const ATOMIC = STM.prototype.atomic;

/** Words found by a scan up to this many; past it, through a map. */
const SCANNED = 16;

/**
 * The words of one access log (`buffer, byteIndex (a multiple of 8), mask` triples), masks merged per word, in
 * first-appearance order: per word its heap index, buffer id, word index in the buffer and byte mask, at positions
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
      const word = base + 2 * w;
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
 * Installs the STM's observer for the thread of `ctx`; with `GOLDILOCKS_STM=internals` (a benchmark setting,
 * bench/stm.ts) none: the STM then uses the patched `Atomics` and reports no commit, so its version clock, ownership
 * records and write-back are checked as the program's own synchronization and atomic accesses (what PLDI'07 §6.1
 * compares with, "without taking transactions into account"; it hides Example 4's race).
 * @returns the methods whose rewritten calls are to carry their site (the runtime's `sitedMethods`): `STM#atomic`,
 *   so that a commit names its call site without capturing a stack (`Sites.callerSite`); none without an observer.
 */
export function observeStm(ctx: Context): readonly Callee[] {
  if (settings.GOLDILOCKS_STM === 'internals') return [];
  const { s, shadow, t } = ctx;
  /** Checks word `k` of `words` of a commit; reports a conflict at its first racing byte. */
  const checkWord = (words: Words, k: number, flags: number, site: number) => {
    const mask = words.mask[k];
    const c = shadow.access(words.word[k], mask, flags, site, ctx.stopOnRace);
    if (c === undefined) return;
    const common = mask & c.flags;
    ctx.race(
      c,
      words.id[k],
      words.w[k] * 8 + (31 - Math.clz32(common & -common)),
      bytesIn(mask),
      flags,
      site,
      'stm.atomic',
      commit,
    );
  };
  const r = new Words();
  const w = new Words();
  /** R ∪ W of the commit being prepared (`rw[0 … rwLength − 1]`): the words read, then those written and not read. */
  const rw: number[] = [];
  let rwLength = 0;
  /** The site of the committing `atomic` call, found by {@link prepare}. */
  let site = 0;
  /** A collection of the list deferred by a commit until it has released its records. */
  let collect = false;
  /** The logs resolved to words, before the attempt locks its records (nothing here needs a lock). */
  const prepare = (reads: AccessLog, writes: AccessLog): void => {
    r.fill(ctx, reads);
    w.fill(ctx, writes);
    let n = 0;
    for (let k = 0; k < r.length; k++) rw[n++] = r.word[k];
    for (let k = 0; k < w.length; k++) if (r.indexOf(w.word[k]) < 0) rw[n++] = w.word[k];
    rwLength = n;
    // the site of the committing `atomic` call (nested calls have returned: the outermost commits): a rewritten
    // call's static site (STM#atomic is a sited method), else the frame below it
    site = ctx.callerSite(ATOMIC);
  };
  /** The commit point, the records it writes locked: the prepared R ∪ W as one cell, then its checks. */
  const commit = (_reads: AccessLog, _writes: AccessLog, validate: () => boolean): boolean => {
    const n = rwLength;
    const at = allocHeap(s, n);
    if (at + n > s.heap.length) s.refresh();
    const heap = s.heap;
    for (let j = 0; j < n; j++) heap[at + j] = rw[j];
    // validated where it is ordered: no commit reported before it wrote what it read (`../stm/commit.ts`)
    const pos = ctx.listLocked(() => {
      const p = validate() ? appendCell(s, SyncKind.Commit, t, at, n) : -1;
      // the list's collection (§5.4) waits until the commit has released its records (`released`): other
      // transactions on them would wait for all of it (a later cell sets gcDue again if this one is lost)
      collect ||= s.gcDue;
      s.gcDue = false;
      return p;
    });
    if (pos < 0) return false;
    shadow.commitPos = pos;
    try {
      for (let k = 0; k < r.length; k++) checkWord(r, k, Access.XACT, site);
      for (let k = 0; k < w.length; k++) checkWord(w, k, Access.WRITE | Access.XACT, site);
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
  setStmObserver({ atomics: rawAtomics, prepare, commit, released });
  return [ATOMIC];
}
