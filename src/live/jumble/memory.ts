/**
 * Adversarial memory in the live runtime (`goldilocks run --jumble <heuristic>`; Flanagan & Freund, *Adversarial
 * Memory for Detecting Destructive Races*, PLDI'10 §4-5; ../shared/JUMBLE.md §13): the write buffers of the jumbled
 * element locations, in the shadow heap so that every worker sees them, and the choice of what a non-atomic element
 * read of them returns. The rules are the shared core's (`../../jumble/`): a buffer is loaded into a thread-local
 * {@link WriteBuffer} under the word's check lock, the rules ([WRITE], [GC2], [REMOVE OLDEST], [READ] and the
 * heuristic of {@link Adversary}) run on it, and what changed is stored back.
 *
 * **Where it acts** (`../locked.ts`, under the word's check lock, so a buffer and its memory change together):
 * - an element write of a selected location appends `bytes@C_t` (C_t the writer's FastTrack clock, `../shadow/
 *   fasttrack.ts`), then [GC2], [GC1] over the threads that may still act, and [REMOVE OLDEST] (bound 32) — the
 *   shared core's `collect` (`../../jumble/gc.ts`). [GC1] quantifies over a snapshot of the thread clocks of the
 *   clock table (`FastTrackShadow.threadClocks`: every thread forked or started and not joined), taken under the
 *   list lock and renewed every {@link LIVE_REFRESH} collections: sound although stale, since clocks only grow (an
 *   older clock sees more entries, so fewer are removed) and a thread forked after the snapshot inherits the clock
 *   of a forker in it, or forked from one, which dominates that forker's clock in the snapshot (JUMBLE.md §4.6.5);
 *   a worker reads nothing before its fork cell (`../threads.ts` awaitFork). A write of unknown value (below) may
 *   come under the list lock (Atomics), so it never takes a snapshot: it collects over the last one, or without
 *   [GC1] before the first;
 * - every other write to a word with buffers (Atomics, DataView, bulk methods, text codecs, an element write of
 *   other bytes of the word) appends an entry of unknown value with the writer's clock: it hides what it hides;
 * - an element read of a selected location chooses among the distinct visible values ([READ]); when the chosen
 *   entry's value is unknown it reads memory. Atomics reads are never jumbled, nor reads of other paths. A read
 *   with a choice is logged when the run has a read log (`./log.ts`, `GOLDILOCKS_JUMBLE_LOG`).
 * A buffer is made at the first element access of its location with one entry, the bytes in memory then at ⊥ (the
 * initial entry `0@⊥` of a fresh buffer; sound for a location written before, since ⊥ is hidden by any later entry
 * that happens before the read). **Desynchronization guard** (JUMBLE.md §13.3): when the memory of a read differs
 * from its buffer's newest known entry (a write the runtime did not see: wasm, a native addon, a bulk write in
 * flight), the buffer starts again from the memory's bytes at ⊥, counted in `desync`.
 *
 * **Never a value outside the visible set**: the bytes returned are an entry's visible to the reader (or, torn, the
 * halves of two visible entries of a tearable 8-byte element), or the memory's (the newest write, always legal).
 *
 * **Layout** (Int32 words of the shadow heap). The tables (published to workers as environment data
 * `goldilocks.jumble`): a lock, the counters {@link JUMBLE_STATS}, free clock lists per capacity class, then
 * {@link BUCKETS} chain heads of buffer records hashed by shadow word. A record, one per (word, byte mask):
 * [next, word, mask, length, last value (a Float64 key in two words), writes, chain, stale[16], half[16], entries …],
 * an entry [writer, epoch, lo, hi, site, known, clock] (the writer -1 and clock 0 for the initial ⊥; `clock` the heap
 * index of a copy `[capacity, K_0 …]` of the writer's clock; `chain` 1 when the entries form a chain in
 * happens-before, `WriteBuffer.chain`).
 *
 * **Cost** (issue 22 §5). A read of a chain whose newest entry happens before it (the accesses of the location are
 * ordered, as in a race-free program) sees that entry alone: decided from the record's `chain` word and one epoch
 * test, without loading the buffer, it returns the memory's bytes (the newest write: what every heuristic returns
 * when there is no choice). Otherwise the buffer is loaded, its clock rows only when it is not a chain (a chain's
 * visible set and [GC1] need epochs alone: `../../jumble/visible.ts`), and the shared core decides. A write takes
 * the tables' lock at most once: the clock copy of its entry reuses one its collection freed, when one has the
 * capacity, else it is allocated in the same locked section that frees the others. The adversary's per-thread state (fairness counts, torn
 * halves) is kept per thread id modulo 16. Records are linked under the tables' lock (one store), read and written
 * under their word's check lock; clock copies are allocated and freed under the tables' lock.
 */
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';
import { DEFAULT_BOUND, NO_THREAD, UNKNOWN_VALUE, WriteBuffer } from '../../jumble/buffer.js';
import { collect, GC1_FROM, type LiveThreads } from '../../jumble/gc.js';
import type { Adversary } from '../../jumble/heuristics.js';
import { elementOf, type WordMemory } from '../locked.js';
import { allocHeap, lock, rawAtomics, type StateViews, unlock } from '../memory/state.js';
import { getString } from '../memory/strings.js';
import { type ReadLog, valueText } from './log.js';

/** The counters of a jumbled run, summed over its threads (`goldilocks run --jumble` prints them). */
export const JUMBLE_STATS = [
  /** Element reads of jumbled locations. */
  'reads',
  /** Of them, reads with two or more distinct visible values (the location is exercised). */
  'choiceReads',
  /** Reads that returned another value than the newest (torn ones included). */
  'staleReads',
  'tornReads',
  /** Reads whose chosen value was unknown (a write of another path): memory was read. */
  'memoryReads',
  'writes',
  /** Writes of unknown value (Atomics, DataView, bulk, text codecs, other bytes of the word). */
  'unknownWrites',
  /** Write buffers made (Figure 10's "instances"). */
  'buffers',
  'gc1Removed',
  'gc2Removed',
  'removeOldest',
  /** [REMOVE OLDEST] removals of an entry still visible to some thread (adversarial freedom lost). */
  'droppedVisible',
  'desync',
  /** The longest buffer after garbage collection (a maximum: Figure 10's "max buffer, with comp."). */
  'maxLength',
  /** The most writes to one location (a maximum: its length without collection, Figure 10's "no comp."). */
  'maxWrites',
] as const;
const STAT = Object.fromEntries(JUMBLE_STATS.map((n, i) => [n, 1 + i])) as Record<
  (typeof JUMBLE_STATS)[number],
  number
>;

const ENV_KEY = 'goldilocks.jumble';
const T_LOCK = 0;
const CLASSES = 16;
const T_FREE = 1 + JUMBLE_STATS.length;
const T_BUCKETS = T_FREE + CLASSES;
const BUCKETS = 1 << 12;
const TABLES = T_BUCKETS + BUCKETS;

const SLOTS = 16;
const R_NEXT = 0;
const R_WORD = 1;
const R_MASK = 2;
const R_LENGTH = 3;
const R_LAST = 4;
const R_WRITES = 6;
const R_CHAIN = 7;
const R_STALE = 8;
const R_HALF = R_STALE + SLOTS;
const R_ENTRIES = R_HALF + SLOTS;
const E_TID = 0;
const E_EPOCH = 1;
const E_LO = 2;
const E_HI = 3;
const E_SITE = 4;
const E_KNOWN = 5;
const E_CLOCK = 6;
const ENTRY = 7;
/** [REMOVE OLDEST]'s bound (§5.2); a record holds one entry more, appended before the collection. */
const BOUND = DEFAULT_BOUND;
const RECORD = R_ENTRIES + (BOUND + 1) * ENTRY;

const bucketOf = (word: number): number => (Math.imul(word, 0x9e3779b1) >>> 20) & (BUCKETS - 1);
const classOf = (cap: number): number => 31 - Math.clz32(cap / 8);

/**
 * The key by which the core compares values (`WriteBuffer.value`): the bytes' number for up to 4 bytes, with 21 bits
 * folded from the high word for 8. Two values of one key count as one (a choice offered less), never more.
 */
const keyOf = (lo: number, hi: number): number => ((hi ^ (hi >>> 21)) & 0x1fffff) * 4294967296 + (lo >>> 0);

const f64 = new Float64Array(1);
const f64Words = new Int32Array(f64.buffer);

/** Collections ([GC1] tried) between two snapshots of the thread clocks. */
export const LIVE_REFRESH = 16;

/**
 * Where the element being read is: its site (string id), element type, byte in its word, and whether its bytes are
 * read little-endian (a DataView get may read them big-endian).
 */
export interface ReadPlace {
  site: number;
  tag: string;
  at: number;
  littleEndian: boolean;
}

/** The adversarial memory of one thread (see the file header). */
export class JumbleMemory implements WordMemory {
  lo = 0;
  hi = 0;
  private readonly tables: number;
  /** The thread-local copy of the buffer being worked on. */
  private readonly b = new WriteBuffer(0, 8, 2 * (BOUND + 1), 2 * (BOUND + 1));
  /** The clock copies of the loaded entries (to free those the collection removed), and their count. */
  private readonly loaded = new Int32Array(BOUND + 2);
  private loadedCount = 0;
  /** The snapshot of the thread clocks [GC1] quantifies over (count 0: none taken yet), and its age. */
  private readonly live: LiveThreads = {
    data: new Int32Array(0),
    width: 0,
    offsets: new Int32Array(0),
    count: 0,
  };
  private liveAge = LIVE_REFRESH;

  /**
   * @param clock the heap index of this thread's FastTrack clock record (read at each access).
   * @param selects which elements are jumbled ({@link WordMemory.selects}).
   * @param pairsOf the selection of a buffer (`./locations.ts` selectionOf), when the run names its locations;
   *   undefined when every element location is jumbled.
   * @param threadClocks fills a snapshot of the clocks of the threads that may still act (takes the list lock).
   * @param log the read log, if the run has one.
   */
  constructor(
    private readonly s: StateViews,
    private readonly t: number,
    private readonly adversary: Adversary,
    private readonly clock: () => number,
    readonly selects: (buffer: SharedArrayBuffer, off: number, size: number) => boolean,
    readonly pairsOf: ((buffer: SharedArrayBuffer) => readonly number[]) | undefined,
    private readonly threadClocks: (out: LiveThreads) => void,
    private readonly log: ReadLog | undefined,
  ) {
    let tables = getEnvironmentData(ENV_KEY) as number | undefined;
    if (tables === undefined) {
      if (!isMainThread) throw new Error('goldilocks: --jumble: the main thread made no write buffers');
      tables = allocHeap(s, TABLES);
      setEnvironmentData(ENV_KEY, tables);
    }
    this.tables = tables;
  }

  /** The counters, by {@link JUMBLE_STATS} name. */
  stats(): Record<string, number> {
    const heap = this.cover(this.tables + TABLES);
    return Object.fromEntries(JUMBLE_STATS.map((n) => [n, rawAtomics.load(heap, this.tables + STAT[n])]));
  }

  private cover(end: number): Int32Array {
    if (end > this.s.heap.length) this.s.refresh();
    return this.s.heap;
  }

  private count(stat: number, n = 1): void {
    rawAtomics.add(this.cover(this.tables + TABLES), this.tables + stat, n);
  }

  /** The record of (word, mask), or 0. */
  private find(word: number, mask: number): number {
    let heap = this.cover(this.tables + TABLES);
    for (
      let r = rawAtomics.load(heap, this.tables + T_BUCKETS + bucketOf(word));
      r !== 0;
      r = heap[r + R_NEXT]
    ) {
      heap = this.cover(r + RECORD);
      if (heap[r + R_WORD] === word && heap[r + R_MASK] === mask) return r;
    }
    return 0;
  }

  /** A new record of (word, mask) holding `lo, hi @ ⊥`, linked. Word lock held. */
  private make(word: number, mask: number, lo: number, hi: number): number {
    const r = allocHeap(this.s, RECORD);
    const heap = this.cover(r + RECORD);
    heap[r + R_WORD] = word;
    heap[r + R_MASK] = mask;
    f64[0] = Number.NaN;
    heap[r + R_LAST] = f64Words[0];
    heap[r + R_LAST + 1] = f64Words[1];
    heap[r + R_WRITES] = 0;
    this.initial(heap, r, lo, hi);
    const t = this.tables;
    lock(this.s, heap, t + T_LOCK);
    try {
      const head = t + T_BUCKETS + bucketOf(word);
      heap[r + R_NEXT] = heap[head];
      rawAtomics.store(heap, head, r);
    } finally {
      unlock(heap, t + T_LOCK);
    }
    this.count(STAT.buffers);
    return r;
  }

  /** The entries of record r := `lo, hi @ ⊥` alone (a chain). */
  private initial(heap: Int32Array, r: number, lo: number, hi: number): void {
    heap[r + R_LENGTH] = 1;
    heap[r + R_CHAIN] = 1;
    const e = r + R_ENTRIES;
    heap[e + E_TID] = NO_THREAD;
    heap[e + E_EPOCH] = 0;
    heap[e + E_LO] = lo;
    heap[e + E_HI] = hi;
    heap[e + E_SITE] = -1;
    heap[e + E_KNOWN] = 1;
    heap[e + E_CLOCK] = 0;
  }

  write(
    word: number,
    mask: number,
    lo: number,
    hi: number,
    site: number,
    known: boolean,
    realLo: number,
    realHi: number,
  ): void {
    if (known && this.find(word, mask) === 0) this.make(word, mask, realLo, realHi);
    let heap = this.cover(this.tables + TABLES);
    for (
      let r = rawAtomics.load(heap, this.tables + T_BUCKETS + bucketOf(word));
      r !== 0;
      r = heap[r + R_NEXT]
    ) {
      heap = this.cover(r + RECORD);
      if (heap[r + R_WORD] !== word || (heap[r + R_MASK] & mask) === 0) continue;
      const same = known && heap[r + R_MASK] === mask;
      this.append(r, same ? lo : 0, same ? hi : 0, site, same, known);
      heap = this.s.heap;
    }
  }

  /**
   * [WRITE] on record r, then [GC2], [GC1] and [REMOVE OLDEST]; stored back. Word lock held; the list lock too
   * unless `element` (an element store), which may renew the snapshot of the thread clocks.
   */
  private append(r: number, lo: number, hi: number, site: number, known: boolean, element: boolean): void {
    const own = this.clock();
    this.cover(r + RECORD);
    let heap = this.cover(own + 1 + this.cover(own + 1)[own]);
    const cap = heap[own];
    // still a chain after the append (the newest entry happens before this write)? then no clock row is needed
    const chain = heap[r + R_CHAIN] === 1 && this.newestBefore(heap, r, heap[r + R_LENGTH], own);
    const b = this.load(r, !chain);
    heap = this.s.heap;
    const { gc1Removed, gc2Removed, oldestRemoved, droppedVisible } = b;
    // the entry's clock copy (`seq`) is given by storeEntries, once the collection has freed some
    b.append(known ? keyOf(lo, hi) : UNKNOWN_VALUE, this.t, heap, own + 1, cap, -1, site, 0, lo, hi);
    collect(b, this.liveThreads(element && b.length > GC1_FROM), BOUND);
    this.count(known ? STAT.writes : STAT.unknownWrites);
    if (b.gc1Removed > gc1Removed) this.count(STAT.gc1Removed, b.gc1Removed - gc1Removed);
    if (b.gc2Removed > gc2Removed) this.count(STAT.gc2Removed, b.gc2Removed - gc2Removed);
    if (b.oldestRemoved > oldestRemoved) this.count(STAT.removeOldest, b.oldestRemoved - oldestRemoved);
    if (b.droppedVisible > droppedVisible) this.count(STAT.droppedVisible, b.droppedVisible - droppedVisible);
    heap = this.cover(r + RECORD);
    const writes = ++heap[r + R_WRITES];
    const peak = this.tables + STAT.maxWrites;
    if (writes > rawAtomics.load(heap, peak)) rawAtomics.store(heap, peak, writes);
    this.storeEntries(r, b, own);
  }

  /**
   * Whether the newest of the n entries of record r happens before the clock record `own` (`[cap, C_t …]`), by
   * the epoch test (../shared/JUMBLE.md §4.6.2; always for the initial ⊥). `heap` covers both.
   */
  private newestBefore(heap: Int32Array, r: number, n: number, own: number): boolean {
    const e = r + R_ENTRIES + (n - 1) * ENTRY;
    const t = heap[e + E_TID];
    return t < 0 || heap[e + E_EPOCH] <= (t < heap[own] ? heap[own + 1 + t] : 0);
  }

  /**
   * The snapshot of the thread clocks for [GC1], renewed when `renew` (the list lock is not held) and it is
   * {@link LIVE_REFRESH} collections old; undefined before the first (then [GC1] is not applied).
   */
  private liveThreads(renew: boolean): LiveThreads | undefined {
    const live = this.live;
    if (renew && ++this.liveAge >= LIVE_REFRESH) {
      this.liveAge = 0;
      this.threadClocks(live);
    }
    return live.count === 0 ? undefined : live;
  }

  read(word: number, mask: number, tearable: boolean, lo: number, hi: number, place?: ReadPlace): boolean {
    const r = this.find(word, mask);
    if (r === 0) {
      this.make(word, mask, lo, hi);
      this.count(STAT.reads);
      return false;
    }
    this.count(STAT.reads);
    let heap = this.cover(r + RECORD);
    const n = heap[r + R_LENGTH];
    const newest = r + R_ENTRIES + (n - 1) * ENTRY;
    if (heap[newest + E_KNOWN] === 1 && (heap[newest + E_LO] !== lo || heap[newest + E_HI] !== hi)) {
      // a write the runtime did not see: start again from memory
      let freed = 0;
      for (let i = 0; i < n; i++) {
        const c = heap[r + R_ENTRIES + i * ENTRY + E_CLOCK];
        if (c !== 0) this.loaded[freed++] = c;
      }
      this.exchangeClocks(freed, 0);
      heap = this.cover(r + RECORD);
      this.initial(heap, r, lo, hi);
      this.count(STAT.desync);
      return false;
    }
    const own = this.clock();
    heap = this.cover(own + 1 + this.cover(own + 1)[own]);
    const chain = heap[r + R_CHAIN] === 1;
    if (chain && this.newestBefore(heap, r, n, own)) {
      // the newest entry alone is visible (no choice): what adversary.read returns, without loading the buffer
      if (heap[newest + E_KNOWN] !== 1) {
        this.count(STAT.memoryReads);
        return false;
      }
      this.lo = lo;
      this.hi = hi;
      f64[0] = keyOf(lo, hi);
      heap[r + R_LAST] = f64Words[0];
      heap[r + R_LAST + 1] = f64Words[1];
      heap[r + R_STALE + (this.t & (SLOTS - 1))] = 0;
      return true;
    }
    const b = this.load(r, !chain);
    b.tearable = tearable && mask === 0xff;
    heap = this.s.heap;
    const adversary = this.adversary;
    const i = adversary.read(b, this.t, heap, own + 1, heap[own]);
    if (adversary.distinct > 1) this.count(STAT.choiceReads);
    const j = adversary.torn ? adversary.second : i;
    if (Number.isNaN(b.value[i]) || Number.isNaN(b.value[j])) {
      this.count(STAT.memoryReads);
      return false; // the memory: the newest write, always visible
    }
    if (adversary.torn) {
      const high = adversary.highFromEntry ? i : j;
      const low = adversary.highFromEntry ? j : i;
      this.lo = b.lo[low];
      this.hi = b.hi[high];
      this.count(STAT.tornReads);
    } else {
      this.lo = b.lo[i];
      this.hi = b.hi[i];
    }
    if (adversary.stale) this.count(STAT.staleReads);
    if (this.log?.open && adversary.distinct > 1 && place !== undefined) this.logRead(b, place, lo, hi);
    // the adversary's state of this location
    heap = this.cover(r + RECORD);
    f64[0] = b.last;
    heap[r + R_LAST] = f64Words[0];
    heap[r + R_LAST + 1] = f64Words[1];
    heap[r + R_STALE + (this.t & (SLOTS - 1))] = b.stale[this.t];
    heap[r + R_HALF + (this.t & (SLOTS - 1))] = b.half[this.t];
    return true;
  }

  /** Logs the read just chosen (`./log.ts`): memory held (lo, hi), the value returned is {@link lo}, {@link hi}. */
  private logRead(b: WriteBuffer, place: ReadPlace, lo: number, hi: number): void {
    const adversary = this.adversary;
    const writer = (i: number): { thread: string; site: string } | null =>
      b.tid[i] === NO_THREAD
        ? null
        : { thread: `T${b.tid[i]}`, site: b.site[i] < 0 ? '' : getString(this.s, b.site[i]) };
    this.log?.add({
      thread: `T${this.t}`,
      site: getString(this.s, place.site),
      value: valueText(elementOf(place.tag, place.at, this.lo, this.hi, place.littleEndian)),
      newest: valueText(elementOf(place.tag, place.at, lo, hi, place.littleEndian)),
      writer: writer(adversary.entry),
      ...(adversary.torn ? { second: writer(adversary.second) } : {}),
      choices: adversary.distinct,
      stale: adversary.stale,
    });
  }

  /**
   * Record r as the thread-local buffer {@link b}: its entries, chain flag and the adversary's state of this thread,
   * and the entries' clock rows when `clocks` (not needed by a chain: `../../jumble/visible.ts`).
   */
  private load(r: number, clocks: boolean): WriteBuffer {
    const b = this.b;
    const t = this.t;
    let heap = this.cover(r + RECORD);
    const n = heap[r + R_LENGTH];
    if (clocks) {
      let width = 8;
      for (let i = 0; i < n; i++) {
        const c = heap[r + R_ENTRIES + i * ENTRY + E_CLOCK];
        if (c !== 0) width = Math.max(width, this.cover(c + 1)[c]);
      }
      const own = this.clock();
      b.ensureWidth(Math.max(width, this.cover(own + 1)[own]));
    }
    const w = b.width;
    const clock = b.clock;
    heap = this.s.heap;
    for (let i = 0; i < n; i++) {
      const e = r + R_ENTRIES + i * ENTRY;
      const lo = heap[e + E_LO];
      const hi = heap[e + E_HI];
      b.value[i] = heap[e + E_KNOWN] === 1 ? keyOf(lo, hi) : UNKNOWN_VALUE;
      b.tid[i] = heap[e + E_TID];
      b.epoch[i] = heap[e + E_EPOCH];
      b.lo[i] = lo;
      b.hi[i] = hi;
      b.site[i] = heap[e + E_SITE];
      const c = heap[e + E_CLOCK];
      b.seq[i] = c;
      this.loaded[i] = c;
      if (!clocks) continue;
      clock.fill(0, i * w, (i + 1) * w);
      if (c !== 0) {
        heap = this.cover(c + 1 + heap[c]);
        for (let u = 0, cap = heap[c]; u < cap; u++) clock[i * w + u] = heap[c + 1 + u];
      }
    }
    b.length = n;
    b.chain = heap[r + R_CHAIN] === 1;
    this.loadedCount = n;
    f64Words[0] = heap[r + R_LAST];
    f64Words[1] = heap[r + R_LAST + 1];
    b.last = f64[0];
    b.ensureThread(t);
    b.stale[t] = heap[r + R_STALE + (t & (SLOTS - 1))];
    b.half[t] = heap[r + R_HALF + (t & (SLOTS - 1))];
    return b;
  }

  /**
   * Stores the entries of {@link b} (after an append: its newest entry's `seq` is -1, no clock copy yet) into record
   * r. The clock copies of the loaded entries it no longer has are freed, and the newest entry gets a copy of the
   * clock record `own`: one of the freed copies of its capacity, else a new one — the tables' lock taken once, or not
   * at all when a freed copy is reused and no other is freed.
   */
  private storeEntries(r: number, b: WriteBuffer, own: number): void {
    const n = b.length;
    const kept = b.seq;
    const loaded = this.loaded;
    // the loaded copies no entry keeps (to {@link loaded}[0 … freed-1]): the kept entries are in the loaded order
    let freed = 0;
    for (let a = 0, i = 0; a < this.loadedCount; a++) {
      const c = loaded[a];
      if (i < n && kept[i] === c) i++;
      else if (c !== 0) loaded[freed++] = c;
    }
    let heap = this.cover(own + 1);
    const cap = heap[own];
    let copy = 0;
    for (let k = 0; k < freed && copy === 0; k++) {
      if (this.cover(loaded[k] + 1)[loaded[k]] !== cap) continue;
      copy = loaded[k];
      loaded[k] = loaded[--freed];
    }
    if (copy === 0 || freed > 0) copy = this.exchangeClocks(freed, copy === 0 ? cap : 0) || copy;
    heap = this.cover(Math.max(own, copy) + 1 + cap);
    for (let u = 0; u <= cap; u++) heap[copy + u] = heap[own + u];
    kept[n - 1] = copy;
    heap = this.cover(r + RECORD);
    for (let i = 0; i < n; i++) {
      const e = r + R_ENTRIES + i * ENTRY;
      heap[e + E_TID] = b.tid[i];
      heap[e + E_EPOCH] = b.epoch[i];
      heap[e + E_LO] = b.lo[i];
      heap[e + E_HI] = b.hi[i];
      heap[e + E_SITE] = b.site[i];
      heap[e + E_KNOWN] = Number.isNaN(b.value[i]) ? 0 : 1;
      heap[e + E_CLOCK] = kept[i];
    }
    heap[r + R_LENGTH] = n;
    heap[r + R_CHAIN] = b.chain ? 1 : 0;
    const peak = this.tables + STAT.maxLength;
    if (n > rawAtomics.load(heap, peak)) rawAtomics.store(heap, peak, n);
  }

  /**
   * Under the tables' lock: puts the clock copies {@link loaded}[0 … freed-1] (not 0) on their free lists, and when
   * `cap` > 0 takes a clock copy of capacity `cap` (a power of two ≥ 8), `[cap, …]`, from its free list or new.
   * @returns that copy, or 0 when `cap` is 0.
   */
  private exchangeClocks(freed: number, cap: number): number {
    const t = this.tables;
    let heap = this.cover(t + TABLES);
    lock(this.s, heap, t + T_LOCK);
    try {
      for (let k = 0; k < freed; k++) {
        const c = this.loaded[k];
        heap = this.cover(c + 2);
        const list = t + T_FREE + classOf(heap[c]);
        heap[c + 1] = heap[list];
        heap[list] = c;
      }
      if (cap === 0) return 0;
      const list = t + T_FREE + classOf(cap);
      let c = heap[list];
      if (c === 0) c = allocHeap(this.s, 1 + cap);
      else heap[list] = this.cover(c + 2)[c + 1];
      heap = this.cover(c + 1 + cap);
      heap[c] = cap;
      return c;
    } finally {
      unlock(this.s.heap, t + T_LOCK);
    }
  }
}
