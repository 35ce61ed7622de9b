/**
 * **Pending pages** of the live shadow (issue 24 §1, speed at size large; docs/RUNTIME.md): the form of a page
 * whose list stands for the words a thread has not accessed yet in its epoch, and a pending record for those it has
 * ({@link PendingPages.pendingState}), over the page forms of `./pages.ts`; the checks of its words are `Shadow`'s
 * (`./goldilocks.ts`, which extends this class). Every method is called with the page's check lock held.
 */
import { releaseLockset } from '../memory/locksets.js';
import { Pages } from './pages.js';
import { Access, Info } from './records.js';
import { firstWord, isPending, MARK, SHARED_SLOT, UNIFORM } from './table.js';

/**
 * The words of a pending record of its own (`PendingPages.pendingState`; an Info-sized record of the pool, whose owner,
 * `pos` and alock are at `Info`'s indices: `Info.OWNER`, `Info.POS`, `Info.ALOCK_A`, `Info.ALOCK_B`).
 */
// biome-ignore lint/suspicious/noConstEnum: as `Info` of `./records.ts`
const enum Pending {
  /**
   * `~(read | READS | REREAD)`, bit k of `read` set when word k holds the owner's read, {@link READS} or
   * {@link REREAD} when a read can be pending (negative: `isPending` of `./table.ts`).
   */
  STATE = 0,
  /** The heap index of the record of the 8 words' sites of their access (an Info-sized record; the others' 0). */
  SITES = 1,
  /**
   * The bytes of words 0–3 the owner wrote, 8 bits a word (word k's at bit 8k); the bytes it read when
   * {@link PARTIAL}.
   */
  LOW = 4,
  /** Those of words 4–7. */
  HIGH = 7,
}

/**
 * The bit of a pending record's {@link Pending.STATE} set when the page's list holds no plain read of the owner's: a
 * read's record then adds one Info in front of it.
 */
const READS = 0x100;

/**
 * The bit of a pending record's {@link Pending.STATE} set when the page's list holds one read of the owner's, a plain
 * read of all 8 bytes, and no other: a read's record then renews that Info in place (`Shadow.record`: its `pos`, site
 * and alock, its explicit lockset dropped) — a thread's second pass over its own data in a new epoch.
 */
const REREAD = 0x200;

/**
 * The bit of a pending record's {@link Pending.STATE} set when the owner has read part of a word (`Shadow.record`
 * leaves its read of those bytes in front of the page's list, {@link READS}) and written none: {@link Pending.LOW} and
 * {@link Pending.HIGH} hold the bytes of each word it read, a word read whole also in `read` (a `Uint8Array` compared
 * element by element).
 */
const PARTIAL = 0x400;

/**
 * The bytes of word `k` (0–7) that pending record `x` holds the owner's write of, or its read of when
 * {@link PARTIAL}.
 */
const heldBytes = (heap: Int32Array, x: number, k: number): number =>
  (heap[x + (k < 4 ? Pending.LOW : Pending.HIGH)] >>> (8 * (k & 3))) & 0xff;

/** What a word of a pending page holds ({@link PendingPages.pendingState}). */
// biome-ignore lint/suspicious/noConstEnum: as `Info` of `./records.ts`
export const enum Held {
  /** The access cannot be pending: the page is split first. */
  NONE = -1,
  /** The page's list (the word not accessed yet). */
  LIST = 0,
  /**
   * The owner's read (of some of its bytes when {@link PARTIAL}), then the page's list ({@link READS}); or the page's
   * list, the owner's read in it renewed ({@link REREAD}).
   */
  READ = 1,
  /** The owner's write of all its bytes, alone. */
  WRITTEN = 2,
  /** The owner's write of some of its bytes, alone (the page's list is empty). */
  PART = 3,
}

/** The page machinery of `./pages.ts` with pending pages (see the file header). */
export class PendingPages extends Pages {
  /**
   * {@link Pages.splitPage}, which makes a pending page 8 words with their own lists first ({@link unpend}). Lock held.
   */
  override splitPage(page: number): void {
    const heap = this.s.heap;
    const mark = heap[page + MARK];
    if (mark < UNIFORM && isPending(heap, mark)) this.unpend(page, -mark);
    else super.splitPage(page);
  }

  /**
   * **Pending pages** (issue 24 §1, speed at size large): the first accesses of a thread in an epoch to the words of a
   * uniform page — moldyn's forces, each word read and written once or twice per phase, in no order; raytracer's
   * pixels, two to a word; a main thread comparing two `Uint8Array`s element by element — would split it (7 copies of
   * its list) and merge it back once the 8 words agree. When they are plain accesses of whole words (or writes of part
   * of a word, on a page whose list is empty; or reads of part of a word, on a page whose list holds no read of the
   * thread's and where it wrote nothing), the page keeps its list L instead, for the words the thread has not accessed
   * yet, and a pending record of the thread's `pos` and alock, and of the words it read (their list: its read, then L,
   * as `Shadow.record` leaves it when L holds no plain read of the thread's — of the bytes it read, when it read part of
   * a word: reads of other bytes at one site widened, a read of the same or more bytes in place of the last —; or L,
   * the thread's one read in it renewed, when that is a plain read of all 8 bytes: a second pass over its own data in
   * a new epoch) and of the bytes of each word it wrote (its write alone: what a write of all the bytes leaves, or
   * writes of disjoint bytes at one site, widened), each word with its site (a record of 8 sites). Once every word is
   * read whole (all its bytes) or every word written whole, the page is uniform again, its list one Info in front of L
   * or in place of it (or L, the thread's read in it renewed), with a site vector (`./site-vectors.ts`). Any other
   * access — another thread, epoch or alock, a read of part of a word with the thread's read in L or after a write in
   * the page, a read of some of the bytes it read or of other bytes at another site, a write after a partial read, an
   * atomic, a read after a write, a range check, the collector — splits it first ({@link splitPage}: {@link unpend}),
   * each word with the list it stands for (`Shadow.record`'s, access by access). The checks
   * of a pending word are `Shadow`'s, against L. Off where pages are not kept whole or lists not shared (the online
   * peers), and in a transaction's commit.
   *
   * {@link Held} of word `k` of page `page` (its lock held) for a plain access of its bytes `mask` at `site` (a write
   * when `write`, else a read) by this thread at list position `now` with the alock (`alockA`, `alockB`):
   * {@link Held.NONE} when the access cannot be pending; an unsplit empty page becomes uniform ({@link uniform}).
   */
  protected pendingState(
    heap: Int32Array,
    page: number,
    k: number,
    mask: number,
    write: boolean,
    site: number,
    now: number,
    alockA: number,
    alockB: number,
  ): Held {
    if (!this.pendingPages || !this.listsShared) return Held.NONE;
    const whole = mask === Access.MASK;
    const mark = heap[page + MARK];
    if (!isPending(heap, mark)) {
      if (!this.uniform(heap, page)) return Held.NONE;
      if (write) return whole || heap[page + 1] === 0 ? Held.LIST : Held.NONE;
      const own = this.ownRead(heap, heap[page + 1], this.t);
      return own === 0 || (own > 0 && whole) ? Held.LIST : Held.NONE;
    }
    const x = -mark;
    if (
      heap[x + Info.OWNER] !== this.t ||
      heap[x + Info.POS] !== now ||
      heap[x + Info.ALOCK_A] !== alockA ||
      heap[x + Info.ALOCK_B] !== alockB
    )
      return Held.NONE;
    const state = ~heap[x + Pending.STATE];
    const bytes = heldBytes(heap, x, k);
    if (state & PARTIAL) {
      // reads only: a read widens the owner's read of other bytes at its site, renews that of the same bytes, replaces
      // that of fewer (`Shadow.record`); a read of some of them, or of other bytes at another site, leaves two Infos
      if (write) return Held.NONE;
      if (bytes === 0) return Held.LIST;
      const common = mask & bytes;
      return common === bytes || (common === 0 && heap[heap[x + Pending.SITES] + k] === site)
        ? Held.READ
        : Held.NONE;
    }
    // a read after a write adds an Info; so does a write of part of a word after a write of other bytes at another site
    // (or of some of the same bytes, which takes them from the first)
    if (bytes === Access.MASK) return write && whole ? Held.WRITTEN : Held.NONE;
    if (bytes !== 0)
      return write && (whole || ((bytes & mask) === 0 && heap[heap[x + Pending.SITES] + k] === site))
        ? Held.PART
        : Held.NONE;
    if (state & (1 << k)) return whole ? Held.READ : Held.NONE;
    if (write) return whole || heap[page + 1] === 0 ? Held.LIST : Held.NONE;
    if (whole) return (state & (READS | REREAD)) !== 0 ? Held.LIST : Held.NONE;
    // the first read of part of a word: the record becomes PARTIAL, when no byte is written (LOW and HIGH free)
    return (state & READS) !== 0 && heap[x + Pending.LOW] === 0 && heap[x + Pending.HIGH] === 0
      ? Held.LIST
      : Held.NONE;
  }

  /** Pending pages are used (see {@link pendingState}); a checker without them keeps the split form's steps. */
  protected pendingPages = true;

  /**
   * Thread `t`'s reads (plain or atomic) on the list from Info `e`, which a plain read of all 8 bytes of `t`'s renews
   * or drops (`Shadow.record`). @returns 0 when there are none ({@link READS}: the read's Info goes in front), the
   * Info when there is one only, a plain read of all 8 bytes ({@link REREAD}: renewed in place), else -1.
   */
  private ownRead(heap: Int32Array, e: number, t: number): number {
    let own = 0;
    for (; e !== 0; e = heap[e + Info.NEXT])
      if (heap[e + Info.OWNER] === t && (heap[e + Info.FLAGS] & Access.WRITE) === 0) {
        if (own !== 0 || heap[e + Info.FLAGS] !== Access.MASK) return -1;
        own = e;
      }
    return own;
  }

  /**
   * Info `e`, the plain read of pending record `x`'s owner in a list not shared, renewed as the owner's read at `site`
   * renews it (`Shadow.record`): `pos`, site and alock, its explicit lockset dropped.
   */
  private renewRead(heap: Int32Array, e: number, x: number, site: number): void {
    const ls = heap[e + Info.LS];
    if (ls !== 0) {
      heap[e + Info.LS] = 0;
      releaseLockset(this.s, ls);
    }
    heap[e + Info.POS] = heap[x + Info.POS];
    heap[e + Info.SITE] = site;
    heap[e + Info.ALOCK_A] = heap[x + Info.ALOCK_A];
    heap[e + Info.ALOCK_B] = heap[x + Info.ALOCK_B];
  }

  /**
   * Uniform page `page` (its lock held) becomes pending ({@link pendingState}) for this thread at list position `now`
   * with the alock (`alockA`, `alockB`), no word accessed yet: its records filled, then linked by one store.
   * @returns the pending record.
   */
  protected openPending(page: number, now: number, alockA: number, alockB: number): number {
    const sites = this.newRecord();
    const x = this.takeInfo();
    const heap = this.s.heap;
    const own = this.ownRead(heap, heap[page + 1], this.t);
    heap[x + Pending.STATE] = ~(own === 0 ? READS : own > 0 ? REREAD : 0);
    heap[x + Pending.SITES] = sites;
    heap[x + Info.OWNER] = this.t;
    heap[x + Info.POS] = now;
    heap[x + Pending.LOW] = 0;
    heap[x + Info.ALOCK_A] = alockA;
    heap[x + Info.ALOCK_B] = alockB;
    heap[x + Pending.HIGH] = 0;
    heap[page + MARK] = -x;
    return x;
  }

  /**
   * Word `k` of pending page `page` (its lock held, record `x`; {@link pendingState} not {@link Held.NONE}, the
   * access checked) holds this thread's plain access of its bytes `mask` (a write when `write`) at `site`: the page is
   * uniform again when the access completes it (see {@link pendingState}).
   */
  protected pend(page: number, x: number, k: number, mask: number, write: boolean, site: number): void {
    const heap = this.s.heap;
    heap[heap[x + Pending.SITES] + k] = site;
    // STATE holds the read bits inverted
    if (write) {
      heap[x + Pending.STATE] |= 1 << k; // no read of word k: a write replaces it
      heap[x + (k < 4 ? Pending.LOW : Pending.HIGH)] |= mask << (8 * (k & 3));
    } else if (mask === Access.MASK && (~heap[x + Pending.STATE] & PARTIAL) === 0)
      heap[x + Pending.STATE] &= ~(1 << k);
    else if (!this.readBytes(heap, x, k, mask)) return; // word k not read whole: the page is not complete
    const read = ~heap[x + Pending.STATE] & 0xff;
    if (read === 0xff) this.complete(page, x, false);
    else if (heap[x + Pending.LOW] === -1 && heap[x + Pending.HIGH] === -1) this.complete(page, x, true);
  }

  /**
   * Pending record `x` holds the owner's read of the bytes `mask` of word `k` too ({@link PARTIAL}, which it becomes
   * first: the bytes of the words read whole so far set), the word read whole once all its bytes are.
   * @returns whether word `k` is read whole now.
   */
  private readBytes(heap: Int32Array, x: number, k: number, mask: number): boolean {
    if ((~heap[x + Pending.STATE] & PARTIAL) === 0) {
      const read = ~heap[x + Pending.STATE];
      for (let j = 0; j < 8; j++)
        if (read & (1 << j)) heap[x + (j < 4 ? Pending.LOW : Pending.HIGH)] |= Access.MASK << (8 * (j & 3));
      heap[x + Pending.STATE] &= ~PARTIAL;
    }
    heap[x + (k < 4 ? Pending.LOW : Pending.HIGH)] |= mask << (8 * (k & 3));
    if (heldBytes(heap, x, k) !== Access.MASK) return false;
    heap[x + Pending.STATE] &= ~(1 << k);
    return true;
  }

  /**
   * Pending page `page` (record `x`), whose 8 words all hold this thread's read (or all its write of every byte,
   * `written`), becomes uniform: its list that Info, with the words' sites ({@link SiteVectors.siteOf}), in front of
   * the page's list (or in place of it), or the page's list, the owner's read in it renewed ({@link REREAD}). It
   * stays pending when no site vector can be had. Lock held.
   */
  private complete(page: number, x: number, written: boolean): void {
    let heap = this.s.heap;
    const site = this.siteVectors.siteOf(heap, heap[x + Pending.SITES]);
    if (site === undefined) return;
    heap = this.s.heap;
    if (!written && (~heap[x + Pending.STATE] & REREAD) !== 0) {
      if (heap[page + SHARED_SLOT] !== 0) this.ownList(page); // its read renewed in place: its own copy
      heap = this.s.heap;
      this.renewRead(heap, this.ownRead(heap, heap[page + 1], this.t), x, site);
      this.uniformAgain(page, x);
      return;
    }
    const e = this.takeInfo();
    heap = this.s.heap;
    this.pendingInfo(heap, x, e, written ? Access.MASK | Access.WRITE : Access.MASK, site);
    if (written) {
      const h = heap[page + SHARED_SLOT];
      const old = heap[page + 1];
      heap[page + 1] = e;
      heap[page + SHARED_SLOT] = 0;
      if (h !== 0) this.addRefs(h, -1);
      else this.releaseList(old);
    } else {
      if (heap[page + SHARED_SLOT] !== 0) this.ownList(page); // its Infos follow the new one: its own copy
      heap = this.s.heap;
      heap[e + Info.NEXT] = heap[page + 1];
      heap[page + 1] = e;
    }
    this.uniformAgain(page, x);
  }

  /**
   * Pending page `page` (record `x`), its list complete, is uniform again: the records freed, the list offered for
   * sharing ({@link Pages.shareList}).
   */
  private uniformAgain(page: number, x: number): void {
    const heap = this.s.heap;
    heap[page + MARK] = UNIFORM;
    this.releaseRecord(heap[x + Pending.SITES]);
    this.releaseRecord(x);
    this.shareList(page);
  }

  /** Info `e` is the access of pending record `x` with `flags` (its bytes, WRITE or not) at `site`; `NEXT` 0. */
  private pendingInfo(heap: Int32Array, x: number, e: number, flags: number, site: number): void {
    heap[e + Info.NEXT] = 0;
    heap[e + Info.FLAGS] = flags;
    heap[e + Info.OWNER] = heap[x + Info.OWNER];
    heap[e + Info.POS] = heap[x + Info.POS];
    heap[e + Info.SITE] = site;
    heap[e + Info.ALOCK_A] = heap[x + Info.ALOCK_A];
    heap[e + Info.ALOCK_B] = heap[x + Info.ALOCK_B];
    heap[e + Info.LS] = 0;
  }

  /**
   * Pending page `page` (record `x`) becomes 8 words with their own lists ({@link pendingState}): the page, uniform
   * again with its list, is split, then each word its owner accessed gets its Info, in front of its copy of the list
   * (a read), in place of it (a write), or its copy's read of the owner's renewed (a read, {@link REREAD}). A thread
   * stopped in between leaves words without their pending access (a missed race, never a false alarm, as a stopped
   * {@link splitPage}) or the records not freed (a leak). Lock held.
   */
  private unpend(page: number, x: number): void {
    let heap = this.s.heap;
    heap[page + MARK] = UNIFORM;
    this.splitPage(page);
    const read = ~heap[x + Pending.STATE];
    const sites = heap[x + Pending.SITES];
    const w0 = firstWord(page);
    const partial = (read & PARTIAL) !== 0;
    for (let k = 0; k < 8; k++) {
      const bytes = heldBytes(heap, x, k);
      const written = partial ? 0 : bytes;
      const readBytes = partial ? bytes : read & (1 << k) ? Access.MASK : 0;
      if (written === 0 && readBytes === 0) continue;
      if (written === 0 && read & REREAD) {
        const head = this.headFor(w0 + k);
        heap = this.s.heap;
        this.renewRead(heap, this.ownRead(heap, heap[head], heap[x + Info.OWNER]), x, heap[sites + k]);
        continue;
      }
      const e = this.takeInfo();
      const head = this.headFor(w0 + k);
      heap = this.s.heap;
      this.pendingInfo(heap, x, e, written !== 0 ? written | Access.WRITE : readBytes, heap[sites + k]);
      if (written !== 0) {
        this.releaseList(heap[head]);
        heap[head] = e;
      } else {
        heap[e + Info.NEXT] = heap[head];
        heap[head] = e;
      }
    }
    this.releaseRecord(sites);
    this.releaseRecord(x);
  }
}
