/**
 * FastTrack online (`goldilocks run --detector fasttrack`): the vector-clock peer of the live runtime (Flanagan &
 * Freund, "FastTrack: Efficient and Precise Dynamic Race Detection", PLDI'09 §3, Figure 2; the offline one is
 * `src/detectors/vectorclock/fasttrack.ts`). Same happens-before as Goldilocks, so the same verdicts.
 *
 * **Data accesses** use Goldilocks' shadow words (`./goldilocks.ts`: the word's check lock, its list of `Info`s,
 * per byte the last write and the reads since), except that an Info's `pos` holds its owner's *epoch* (`C_u[u]` at
 * the access) instead of a list position. An earlier access of thread u at epoch c happens before thread t's current
 * point iff `c <= C_t[u]`; otherwise it races. Per byte, the write Info is FastTrack's write epoch W_x and the read
 * Infos its read state R_x: one Info, an epoch, or several, a read vector clock (read-shared). The rules of
 * Figure 2, per byte:
 * - [READ SAME EPOCH] / [WRITE SAME EPOCH]: the runtime's same-epoch filter, and an Info of this thread updated in
 *   place (`Shadow.record`);
 * - [READ EXCLUSIVE]: a read whose bytes' only read is another thread's, ordered before it, replaces that read
 *   ({@link readExclusive}); [READ SHARE]: one not ordered before it stays beside it (read-shared);
 *   [READ SHARED]: in read-shared bytes, the read replaces only this thread's own;
 * - [WRITE EXCLUSIVE] / [WRITE SHARED]: a write is checked against the write and every read on its bytes, and
 *   replaces them all: the bytes' read state is empty again, then an epoch at the next read.
 * ECMA-262 atomics: a read replaces another only where every write conflicting with the old one conflicts with the
 * new one (a plain read, or an atomic read of the old atomic read's range: two atomic accesses of one range never
 * race), so that whatever raced with the old read races with the new one: the verdicts stay exact (a report may
 * name the replacing read where Goldilocks names the replaced one).
 *
 * **Synchronization.** Vector clocks live in the shadow heap: a thread's clock `C_t` and one clock per
 * synchronization object (lock, waiter list, atomic location, sync-library volatile, message), found through one
 * chained hash table keyed by the object's cell words (a, b) (a thread's key is (THREAD, t)). The thread that
 * appends a cell updates the clocks (`StateViews.onCell`, list lock held), so every clock update is serialized and
 * in list order, by the rules shared with the offline detectors (`src/detectors/vectorclock/rules.ts`; this class is
 * their {@link rules.ClockStore}), which mirror the lockset rules of `./goldilocks.ts` (docs/RUNTIME.md, "ECMA-262
 * atomics are not Java volatiles"): a lock's acquire and release, a waiter list's too; an `Atomics` read, write
 * (a copy) and read-modify-write; a message's send as an atomic write and its receive as an atomic read (then the
 * message's clock is freed: it is delivered once; a broadcast's is kept); a sync-library publish and subscribe as
 * a Java volatile's write and read; fork; join (then the child's clock is freed). Thread clocks start at
 * `C_t[t] = 1` (epoch 0 = never).
 *
 * **Transaction commits** (Goldilocks PLDI'07 §5.3; `../stm-observer.ts`): a data variable y that transactions touch
 * (an 8-byte word, named by its word's address) has a clock TX_y, key (TXVAR, y). The commit cell of thread t with
 * R ∪ W does `C_t ⊔= TX_y` for each y ({@link rules.commitEnter}) and then `TX_y ⊔= C_t` for each y
 * ({@link rules.commitLeave}: the same as after the accesses' checks, which do not change C_t); the commit's
 * accesses are then checked with `XACT` at the epoch C_t[t], and only after them is C_t[t] incremented
 * ({@link endCommit}, {@link rules.commitEnd}), so that TX_y holds the epoch of the accesses it orders. Two commits
 * touching a common word never overlap (the STM holds that word's ownership record locked from before the cell
 * to after the checks), so no commit reads TX_y between the cell and the checks of another.
 *
 * **Layout** (Int32 words of the shadow heap). The tables at `ctl[CTL.peer]`: {@link BUCKETS} chain heads, the
 * free-entry list head, then per capacity class (8 << k) the head of a list of free clocks. An entry is
 * [next, a, b, clock]; a clock is [capacity, c_0 … c_{capacity-1}] with a power-of-two capacity ≥ the highest
 * thread id it holds + 1; a clock too small for a join is replaced by a larger copy (one store of the entry's
 * `clock`). Freed entries and clocks are reused. Only the owner thread writes its own clock after its fork cell,
 * so it reads `C_t` without the list lock (cached heap index).
 *
 * **A worker terminated mid-update** (holding the list lock) is survived by the lock takeover of `../memory/state.ts`; the
 * structures stay readable: entries and clocks are filled before one store links them, a join leaves each
 * component old or new (monotone), and a copy stopped halfway may mix two writes' clocks (extra edges: a race may
 * be missed there, no false alarm is added).
 *
 * The shadow heap is a shared view: its words are moved with loops, never with the `TypedArray` methods the
 * runtime patches (`../intercept/patches.ts`), which would check them as the program's accesses.
 */

import * as rules from '../../detectors/vectorclock/rules.js';
import type { LiveThreads } from '../../jumble/gc.js';
import { growAtLeast } from '../../model/interner.js';
import { SyncKind } from '../../model/sync.js';
import {
  allocHeap,
  CTL,
  lock,
  peerTables,
  type StateViews,
  TAG_SHIFT,
  Tag,
  unlock,
} from '../memory/state.js';
import { Access, type Conflict, Info, Shadow } from './goldilocks.js';
import { headOf } from './table.js';

/** Chain heads of the clock table (fixed: chains grow with the number of synchronization objects). */
const BUCKETS = 1 << 16;
const FREE_ENTRY = BUCKETS;
/** Heads of the free clock lists, per capacity class k (capacity 8 << k). */
const FREE_CLOCK = BUCKETS + 1;
const CLASSES = 24;
const TABLES = FREE_CLOCK + CLASSES;
/** Entry fields. */
const E_NEXT = 0;
const E_A = 1;
const E_B = 2;
const E_CLOCK = 3;
const ENTRY = 4;
/** The `a` word of a thread's key (object tags in cells stay below 2^21). */
const THREAD = 1 << 30;
/** The `a` word of a transactional variable's key (its `b`: the word's address). */
const TXVAR = 1 << 29;
const MIN_CAP = 8;

const bucketOf = (a: number, b: number): number =>
  (Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b) >>> 16) & (BUCKETS - 1);
const classOf = (cap: number): number => 31 - Math.clz32(cap / MIN_CAP);
const capFor = (n: number): number => Math.max(MIN_CAP, 2 ** Math.ceil(Math.log2(n)));

/** Per-thread FastTrack checker (see the file header). */
export class FastTrackShadow extends Shadow implements rules.ClockStore<number> {
  /** Heap index of the shared tables. */
  private readonly tables: number;
  /** This thread's clock table entry. */
  private readonly mine: number;
  /** This thread's clock record (moves when it is widened). */
  private clock: number;

  constructor(s: StateViews, t: number) {
    super(s, t);
    this.tables = peerTables(s, TABLES);
    // A worker may get here before its parent appended the fork cell: the fork then joins into this clock.
    lock(s, s.ctl, CTL.listLock);
    try {
      this.mine = this.threadEntry(t);
      this.clock = this.ownClock();
    } finally {
      unlock(s.ctl, CTL.listLock);
    }
    s.onCell = (kind, thread, a, b) => this.cell(kind, thread, a, b);
  }

  /**
   * Heap index of this thread's clock record `[capacity, C_t[0] … C_t[capacity-1]]`, current between this thread's
   * synchronization operations (only this thread writes it): what adversarial memory reads `C_t` from
   * (`../jumble/memory.ts`).
   */
  get clockRecord(): number {
    return this.clock;
  }

  /**
   * A snapshot of the clocks of the threads that may still act — those with a clock in the table: forked or started,
   * not joined (a joined thread's clock is freed) — into `out` (rows of `out.width` Int32, grown as needed), for
   * adversarial memory's [GC1] (`../jumble/memory.ts`). Takes the list lock (every clock changes under it), so
   * it must not be held.
   */
  threadClocks(out: LiveThreads): void {
    const s = this.s;
    lock(s, s.ctl, CTL.listLock);
    try {
      const ids = s.state.threads.byteLength >> 2;
      let n = 0;
      let width = MIN_CAP;
      for (let u = 0; u < ids; u++) {
        const e = this.lookup(THREAD, u);
        if (e === 0) continue;
        if (out.offsets.length <= n) out.offsets = growAtLeast(out.offsets, n + 1);
        out.offsets[n++] = e;
        const c = this.cover(e + ENTRY)[e + E_CLOCK];
        width = Math.max(width, this.cover(c + 1)[c]);
      }
      if (out.data.length < n * width) out.data = new Int32Array(n * width * 2);
      for (let k = 0; k < n; k++) {
        let heap = this.cover(out.offsets[k] + ENTRY);
        const c = heap[out.offsets[k] + E_CLOCK];
        heap = this.cover(c + 1 + heap[c]);
        const cap = heap[c];
        for (let u = 0; u < width; u++) out.data[k * width + u] = u < cap ? heap[c + 1 + u] : 0;
        out.offsets[k] = k * width;
      }
      out.width = width;
      out.count = n;
    } finally {
      unlock(s.ctl, CTL.listLock);
    }
  }

  /** Epoch of an access recorded now: `C_t[t]`. */
  protected override now(): number {
    return this.s.heap[this.clock + 1 + this.t];
  }

  /**
   * [READ]/[WRITE] of PLDI'09 Figure 2 against Info `e` of another thread `u`: its epoch c@u happens before iff
   * c ≤ C_t[u].
   */
  protected override decide(e: number, u: number): Conflict | undefined {
    const heap = this.s.heap;
    if (this.proven(heap, e, u)) return undefined;
    const c = heap[e + Info.POS];
    const known = this.clockOf(heap, u);
    return {
      owner: u,
      flags: heap[e + Info.FLAGS],
      site: heap[e + Info.SITE],
      detail: `FastTrack: previous access at epoch ${c}@T${u}, but C_T${this.t}[T${u}] = ${known}`,
      lockset: [],
    };
  }

  /** The epoch comparison of {@link decide}: Info `e`'s epoch c@u happens before iff c ≤ C_t[u]. */
  protected override proven(heap: Int32Array, e: number, u: number): boolean {
    return heap[e + Info.POS] <= this.clockOf(heap, u);
  }

  /** A read may drop other threads' reads ({@link readExclusive}): never skipped as unchanged. */
  protected override sameAccessKept = false;

  /** Lists are not shared between pages (`Shadow.shareList`): {@link readExclusive} changes other threads' records. */
  protected override listsShared = false;

  /**
   * Records the access (`Shadow.record`), a read after {@link readExclusive}. Lock held.
   */
  override record(word: number, mask: number, flags: number, site: number): void {
    if ((flags & Access.WRITE) === 0) this.readExclusive(word, mask, flags);
    super.record(word, mask, flags, site);
  }

  /**
   * [READ EXCLUSIVE] of PLDI'09 Figure 2, per byte, for a read of the bytes `mask` with `flags` of word `word`:
   * on each byte whose only read is another thread's, ordered before this read, and whose every conflicting write
   * conflicts with this read too, that read is dropped: a plain read by a plain read; an atomic read by a plain
   * read or an atomic read of its range, and only whole (kept if partly covered: a smaller range would change
   * what it conflicts with).
   * This thread's own reads are replaced by `Shadow.record` ([READ SHARED]). Lock held.
   */
  private readExclusive(word: number, mask: number, flags: number): void {
    let heap = this.s.heap;
    // the bytes with two reads or more: read-shared, [READ SHARED] keeps every thread's
    const t = this.t;
    let seen = 0;
    let shared = 0;
    let others = 0; // the bytes read by other threads
    const head = headOf(heap, word);
    for (let e = heap[head]; e !== 0; e = heap[e + Info.NEXT]) {
      if (e + Info.SIZE > heap.length) {
        this.s.refresh();
        heap = this.s.heap;
      }
      const f = heap[e + Info.FLAGS];
      if (f & Access.WRITE) continue;
      shared |= seen & f & Access.MASK;
      seen |= f & Access.MASK;
      if (heap[e + Info.OWNER] !== t) others |= f & Access.MASK;
    }
    const exclusive = mask & ~shared;
    if ((others & exclusive) === 0) return;
    const same = mask | flags;
    let prev = head - Info.NEXT; // heap[prev + NEXT] is the head
    for (let e = heap[head]; e !== 0; ) {
      const next = heap[e + Info.NEXT];
      const f = heap[e + Info.FLAGS];
      const u = heap[e + Info.OWNER];
      const bytes = f & exclusive;
      if (
        bytes !== 0 &&
        (f & Access.WRITE) === 0 &&
        u !== t &&
        ((f & Access.ATOMIC) === 0
          ? (flags & Access.ATOMIC) === 0
          : bytes === (f & Access.MASK) && ((flags & Access.ATOMIC) === 0 || f === same)) &&
        heap[e + Info.POS] <= this.clockOf(heap, u)
      ) {
        if (this.dropBytes(heap, prev, e, f, bytes)) {
          e = next;
          continue;
        }
      }
      prev = e;
      e = next;
    }
  }

  /** C_t[u]. */
  private clockOf(heap: Int32Array, u: number): number {
    const clock = this.clock;
    return u < heap[clock] ? heap[clock + 1 + u] : 0;
  }

  /** The heap view, refreshed when it ends before `end` (another thread allocated there). */
  private cover(end: number): Int32Array {
    if (end > this.s.heap.length) this.s.refresh();
    return this.s.heap;
  }

  /** Thread `u`'s entry, made with `C_u[u] = 1` if missing. List lock held. */
  private threadEntry(u: number): number {
    let e = this.lookup(THREAD, u);
    if (e === 0) {
      e = this.insert(THREAD, u);
      this.tick(e, u);
    }
    return e;
  }

  /** Updates the clocks for a cell this thread appended by the rules of `rules.ts` (list lock held). */
  private cell(kind: number, t: number, a: number, b: number): void {
    const me = this.mine;
    switch (kind) {
      case SyncKind.Acquire:
        rules.acquire(this, me, this.lookup(a, b));
        break;
      case SyncKind.AtomicRead:
        rules.atomicRead(this, me, this.lookup(a, b));
        break;
      case SyncKind.Subscribe:
        rules.volatileRead(this, me, this.lookup(a, b));
        break;
      case SyncKind.Release:
        rules.release(this, me, t, this.lookupOrInsert(a, b));
        break;
      case SyncKind.Publish:
        rules.volatileWrite(this, me, t, this.lookupOrInsert(a, b));
        break;
      case SyncKind.AtomicWrite:
      case SyncKind.Send:
        rules.atomicWrite(this, me, t, this.lookupOrInsert(a, b));
        break;
      case SyncKind.AtomicRmw:
        rules.atomicReadModifyWrite(this, me, t, this.lookupOrInsert(a, b));
        break;
      case SyncKind.Receive: {
        const m = this.lookup(a, b);
        rules.atomicRead(this, me, m);
        if (a >>> TAG_SHIFT === Tag.Message) this.remove(m); // delivered once; a broadcast reaches many
        break;
      }
      case SyncKind.Fork:
        rules.fork(this, me, t, this.threadEntry(b));
        break;
      case SyncKind.Join: {
        const c = this.lookup(THREAD, b);
        rules.join(this, me, c, b);
        this.remove(c);
        break;
      }
      case SyncKind.Commit:
        this.commit(a, b);
        break;
    }
    this.clock = this.ownClock();
  }

  /**
   * The commit cell of this thread with R ∪ W the `n` word addresses from heap index `at`: C_t ⊔= TX_y for each
   * y, then TX_y ⊔= C_t (see the file header; the tick waits for {@link endCommit}). List lock held.
   */
  private commit(at: number, n: number): void {
    const me = this.mine;
    for (let j = at; j < at + n; j++) rules.commitEnter(this, me, this.lookup(TXVAR, this.cover(j + 1)[j]));
    for (let j = at; j < at + n; j++)
      rules.commitLeave(this, me, this.lookupOrInsert(TXVAR, this.cover(j + 1)[j]));
  }

  /**
   * The commit's accesses are checked: C_t[t]++ ({@link rules.commitEnd}). Without the list lock: only this thread
   * writes its clock, and its capacity already holds t.
   */
  override endCommit(): void {
    super.endCommit();
    rules.commitEnd(this, this.mine, this.t);
  }

  /** This thread's clock record, the heap view covering all of it (read by {@link check} without refreshing). */
  private ownClock(): number {
    const c = this.cover(this.mine + ENTRY)[this.mine + E_CLOCK];
    this.cover(c + 1 + this.cover(c + 1)[c]);
    return c;
  }

  /** The entry of key (a, b), or 0. List lock held. */
  private lookup(a: number, b: number): number {
    let heap = this.cover(this.tables + TABLES);
    for (let e = heap[this.tables + bucketOf(a, b)]; e !== 0; e = heap[e + E_NEXT]) {
      heap = this.cover(e + ENTRY);
      if (heap[e + E_A] === a && heap[e + E_B] === b) return e;
    }
    return 0;
  }

  private lookupOrInsert(a: number, b: number): number {
    return this.lookup(a, b) || this.insert(a, b);
  }

  /** A new entry for key (a, b) with an all-zero clock, linked at its chain's head. List lock held. */
  private insert(a: number, b: number): number {
    const clock = this.allocClock(MIN_CAP);
    const free = this.tables + FREE_ENTRY;
    let e = this.s.heap[free];
    if (e !== 0) this.s.heap[free] = this.cover(e + ENTRY)[e + E_NEXT];
    else e = allocHeap(this.s, ENTRY);
    const heap = this.cover(e + ENTRY);
    const head = this.tables + bucketOf(a, b);
    heap[e + E_A] = a;
    heap[e + E_B] = b;
    heap[e + E_CLOCK] = clock;
    heap[e + E_NEXT] = heap[head];
    heap[head] = e;
    return e;
  }

  /** Unlinks entry `e` (if not 0) and frees it and its clock. List lock held. */
  private remove(e: number): void {
    if (e === 0) return;
    let heap = this.cover(e + ENTRY);
    let prev = this.tables + bucketOf(heap[e + E_A], heap[e + E_B]) - E_NEXT;
    while (heap[prev + E_NEXT] !== e) {
      prev = heap[prev + E_NEXT];
      if (prev === 0) return;
      heap = this.cover(prev + ENTRY);
    }
    heap[prev + E_NEXT] = heap[e + E_NEXT];
    this.freeClock(heap[e + E_CLOCK]);
    heap[e + E_NEXT] = heap[this.tables + FREE_ENTRY];
    heap[this.tables + FREE_ENTRY] = e;
  }

  /** A zeroed clock record of capacity `cap` (a power of two ≥ 8), reused from the free lists when possible. */
  private allocClock(cap: number): number {
    const list = this.tables + FREE_CLOCK + classOf(cap);
    let c = this.s.heap[list];
    if (c === 0) c = allocHeap(this.s, 1 + cap);
    else this.s.heap[list] = this.cover(c + 2)[c + 1];
    const heap = this.cover(c + 1 + cap);
    for (let i = c + 1; i <= c + cap; i++) heap[i] = 0;
    heap[c] = cap;
    return c;
  }

  /** Puts clock record `c` on its free list (its first component links the list). */
  private freeClock(c: number): void {
    const heap = this.cover(c + 2);
    const list = this.tables + FREE_CLOCK + classOf(heap[c]);
    heap[c + 1] = heap[list];
    heap[list] = c;
  }

  /** Entry `e`'s clock with capacity ≥ `n` (a larger copy replaces it when needed). @returns the clock. */
  private widen(e: number, n: number): number {
    const old = this.s.heap[e + E_CLOCK];
    const cap = this.cover(old + 1)[old];
    if (cap >= n) return old;
    const c = this.allocClock(capFor(n));
    const heap = this.cover(old + 1 + cap);
    for (let i = 1; i <= cap; i++) heap[c + i] = heap[old + i];
    heap[e + E_CLOCK] = c;
    this.freeClock(old);
    return c;
  }

  /** `C_dst ⊔= C_src` for entries `dst`, `src` (nothing when `src` is 0, a missing clock: all zero). */
  join(dst: number, src: number): void {
    if (src === 0) return;
    const from = this.s.heap[src + E_CLOCK];
    const n = this.cover(from + 1)[from];
    const to = this.widen(dst, n);
    const heap = this.cover(Math.max(from, to) + 1 + n);
    for (let i = 1; i <= n; i++) if (heap[from + i] > heap[to + i]) heap[to + i] = heap[from + i];
  }

  /** `C_dst := C_src` for entries `dst`, `src` (ECMA-262 atomic write: the location carries this write's clock only). */
  copy(dst: number, src: number): void {
    const from = this.s.heap[src + E_CLOCK];
    const n = this.cover(from + 1)[from];
    const to = this.widen(dst, n);
    const cap = this.cover(to + 1)[to];
    const heap = this.cover(Math.max(from + 1 + n, to + 1 + cap));
    for (let i = 1; i <= n; i++) heap[to + i] = heap[from + i];
    for (let i = n + 1; i <= cap; i++) heap[to + i] = 0;
  }

  /** `C_u[u]++` in entry `e`'s clock (widened to hold u; nothing when `e` is 0, a missing clock). */
  tick(e: number, u: number): void {
    if (e === 0) return;
    const c = this.widen(e, u + 1);
    this.cover(c + 2 + u)[c + 1 + u]++;
  }
}
