/**
 * The write buffers of adversarial memory (`./memory.ts`) in the shadow heap, so that every worker sees them: their
 * layout, the records of the buffers (found by word and byte mask, made, loaded into a thread-local {@link WriteBuffer}
 * of the shared core `../../jumble/buffer.ts` and stored back), the copies of the writers' clocks, and the counters of
 * a jumbled run (Flanagan & Freund, PLDI'10 §5.2, Figure 10; ../shared/JUMBLE.md §13).
 *
 * **Layout** (Int32 words of the shadow heap). The tables (published to workers as environment data
 * `goldilocks.jumble`): a lock, the counters {@link JUMBLE_STATS}, free clock lists per capacity class, then
 * {@link BUCKETS} chain heads of buffer records hashed by shadow word. A record, one per (word, byte mask):
 * [next, word, mask, length, last value (a Float64 key in two words), writes, chain, stale[16], half[16], entries …],
 * an entry [writer, epoch, lo, hi, site, known, clock] (the writer -1 and clock 0 for the initial ⊥; `clock` the heap
 * index of a copy `[capacity, K_0 …]` of the writer's clock; `chain` 1 when the entries form a chain in
 * happens-before, `WriteBuffer.chain`). The adversary's per-thread state (fairness counts, torn halves) is kept per
 * thread id modulo 16.
 *
 * **Locks.** Records are linked under the tables' lock (one store), read and written under their word's check lock;
 * clock copies are taken and freed under the tables' lock, at most once per write ({@link BufferRecords.storeEntries}:
 * the copy of a new entry reuses one its collection freed when one has the capacity). Each thread counts in its own
 * counts, added to the shared counters every {@link FLUSH_EVERY} counts and at its exit.
 */
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';
import { DEFAULT_BOUND, NO_THREAD, UNKNOWN_VALUE, WriteBuffer } from '../../jumble/buffer.js';
import { allocHeap, lock, rawAtomics, type StateViews, unlock } from '../memory/state.js';

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
export const STAT = Object.fromEntries(JUMBLE_STATS.map((n, i) => [n, 1 + i])) as Record<
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

export const SLOTS = 16;
export const R_NEXT = 0;
export const R_WORD = 1;
export const R_MASK = 2;
export const R_LENGTH = 3;
const R_LAST = 4;
const R_WRITES = 6;
export const R_CHAIN = 7;
const R_STALE = 8;
export const R_HALF = R_STALE + SLOTS;
export const R_ENTRIES = R_HALF + SLOTS;
const E_TID = 0;
const E_EPOCH = 1;
export const E_LO = 2;
export const E_HI = 3;
const E_SITE = 4;
export const E_KNOWN = 5;
const E_CLOCK = 6;
export const ENTRY = 7;
/** [REMOVE OLDEST]'s bound (§5.2); a record holds one entry more, appended before the collection. */
export const BOUND = DEFAULT_BOUND;
export const RECORD = R_ENTRIES + (BOUND + 1) * ENTRY;

const bucketOf = (word: number): number => (Math.imul(word, 0x9e3779b1) >>> 20) & (BUCKETS - 1);
const classOf = (cap: number): number => 31 - Math.clz32(cap / 8);

/**
 * The key by which the core compares values (`WriteBuffer.value`): the bytes' number for up to 4 bytes, with 21 bits
 * folded from the high word for 8. Two values of one key count as one (a choice offered less), never more.
 */
export const keyOf = (lo: number, hi: number): number =>
  ((hi ^ (hi >>> 21)) & 0x1fffff) * 4294967296 + (lo >>> 0);

const f64 = new Float64Array(1);
const f64Words = new Int32Array(f64.buffer);

/** Counts of a thread between two additions to the shared counters. */
const FLUSH_EVERY = 1 << 12;

/** The write buffer records of one thread's adversarial memory (see the file header). */
export class BufferRecords {
  readonly tables: number;
  /** The thread-local copy of the buffer being worked on. */
  readonly b = new WriteBuffer(0, 8, 2 * (BOUND + 1), 2 * (BOUND + 1));
  /** The clock copies of the loaded entries (to free those the collection removed), and their count. */
  readonly loaded = new Int32Array(BOUND + 2);
  private loadedCount = 0;
  /**
   * This thread's counts not yet added to the shared counters (by {@link STAT} index; the `max…` ones are stored
   * there at once), and how many more counts until they are: {@link flush}.
   */
  private readonly counts = new Float64Array(1 + JUMBLE_STATS.length);
  private flushIn = FLUSH_EVERY;
  /** The largest buffer length and write count this thread stored in the shared `max…` counters. */
  private maxLength = 0;
  private maxWrites = 0;

  /**
   * The records of thread t; the main thread makes the tables.
   * @param clock the heap index of this thread's FastTrack clock record (read at each access).
   * @throws Error in a worker when the main thread made no tables.
   */
  constructor(
    private readonly s: StateViews,
    private readonly t: number,
    private readonly clock: () => number,
  ) {
    let tables = getEnvironmentData(ENV_KEY) as number | undefined;
    if (tables === undefined) {
      if (!isMainThread) throw new Error('goldilocks: --jumble: the main thread made no write buffers');
      tables = allocHeap(s, TABLES);
      setEnvironmentData(ENV_KEY, tables);
    }
    this.tables = tables;
  }

  /**
   * The counters, by {@link JUMBLE_STATS} name: the shared ones, which hold this thread's counts once it {@link flush}ed
   * (and another thread's once it did: every {@link FLUSH_EVERY} counts and at its exit).
   */
  stats(): Record<string, number> {
    const heap = this.cover(this.tables + TABLES);
    return Object.fromEntries(JUMBLE_STATS.map((n) => [n, rawAtomics.load(heap, this.tables + STAT[n])]));
  }

  cover(end: number): Int32Array {
    if (end > this.s.heap.length) this.s.refresh();
    return this.s.heap;
  }

  /** Counts n of counter `stat` (a {@link STAT} index) in this thread's counts. */
  count(stat: number, n = 1): void {
    this.counts[stat] += n;
    if (--this.flushIn === 0) this.flush();
  }

  /** Adds this thread's counts to the shared counters (every {@link FLUSH_EVERY} counts, and at the thread's exit). */
  flush(): void {
    const heap = this.cover(this.tables + TABLES);
    const counts = this.counts;
    for (let i = 1; i < counts.length; i++) {
      if (counts[i] !== 0) rawAtomics.add(heap, this.tables + i, counts[i]);
      counts[i] = 0;
    }
    this.flushIn = FLUSH_EVERY;
  }

  /** Stores `value` in the shared `max…` counter `stat` when it is larger. */
  peak(heap: Int32Array, stat: number, value: number): void {
    if (value > rawAtomics.load(heap, this.tables + stat)) rawAtomics.store(heap, this.tables + stat, value);
  }

  /** The first record of the chain of word `word`'s bucket (then `heap[r + R_NEXT]`), or 0. */
  first(word: number): number {
    return rawAtomics.load(this.cover(this.tables + TABLES), this.tables + T_BUCKETS + bucketOf(word));
  }

  /** The record of (word, mask), or 0. */
  find(word: number, mask: number): number {
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
  make(word: number, mask: number, lo: number, hi: number): number {
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

  /**
   * The desynchronization guard (`./memory.ts`): record r starts again from the memory's bytes `lo, hi @ ⊥` (its clock
   * copies freed), counted in `desync`. Word lock held.
   */
  resync(r: number, lo: number, hi: number): void {
    let heap = this.cover(r + RECORD);
    let freed = 0;
    for (let i = 0, n = heap[r + R_LENGTH]; i < n; i++) {
      const c = heap[r + R_ENTRIES + i * ENTRY + E_CLOCK];
      if (c !== 0) this.loaded[freed++] = c;
    }
    this.exchangeClocks(freed, 0);
    heap = this.cover(r + RECORD);
    this.initial(heap, r, lo, hi);
    this.count(STAT.desync);
  }

  /** A write appended to record r: its count of writes, and the `maxWrites` counter. */
  wrote(r: number): void {
    const heap = this.cover(r + RECORD);
    const writes = ++heap[r + R_WRITES];
    if (writes > this.maxWrites) {
      this.maxWrites = writes;
      this.peak(heap, STAT.maxWrites, writes);
    }
  }

  /**
   * The adversary's state of record r after a read by this thread: the key of the value last read (`last`, NaN: none
   * or torn) and this thread's consecutive stale reads; each word stored only when it changes (a read by several
   * threads of a location then writes nothing they share).
   */
  adversaryState(r: number, last: number, stale: number): void {
    const heap = this.cover(r + RECORD);
    f64[0] = last;
    if (heap[r + R_LAST] !== f64Words[0] || heap[r + R_LAST + 1] !== f64Words[1]) {
      heap[r + R_LAST] = f64Words[0];
      heap[r + R_LAST + 1] = f64Words[1];
    }
    const slot = r + R_STALE + (this.t & (SLOTS - 1));
    if (heap[slot] !== stale) heap[slot] = stale;
  }

  /** The entries of record r := `lo, hi @ ⊥` alone (a chain). */
  initial(heap: Int32Array, r: number, lo: number, hi: number): void {
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

  /**
   * Whether the newest of the n entries of record r happens before the clock record `own` (`[cap, C_t …]`), by
   * the epoch test (../shared/JUMBLE.md §4.6.2; always for the initial ⊥). `heap` covers both.
   */
  newestBefore(heap: Int32Array, r: number, n: number, own: number): boolean {
    const e = r + R_ENTRIES + (n - 1) * ENTRY;
    const t = heap[e + E_TID];
    return t < 0 || heap[e + E_EPOCH] <= (t < heap[own] ? heap[own + 1 + t] : 0);
  }

  /**
   * Record r as the thread-local buffer {@link b}: its entries, chain flag and the adversary's state of this thread,
   * and the entries' clock rows when `clocks` (not needed by a chain: `../../jumble/visible.ts`).
   */
  load(r: number, clocks: boolean): WriteBuffer {
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
   * at all when a freed copy is reused and no other is freed, or when nothing is freed and no copy is free (a new
   * one from the heap's lock-free allocator). Only the entries not already at their place are written.
   */
  storeEntries(r: number, b: WriteBuffer, own: number): void {
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
    const t = this.tables;
    if (copy === 0 && freed === 0 && rawAtomics.load(this.cover(t + TABLES), t + T_FREE + classOf(cap)) === 0)
      copy = allocHeap(this.s, 1 + cap); // nothing to free, no copy free: a new one, without the lock
    else if (copy === 0 || freed > 0) copy = this.exchangeClocks(freed, copy === 0 ? cap : 0) || copy;
    heap = this.cover(Math.max(own, copy) + 1 + cap);
    for (let u = 0; u <= cap; u++) heap[copy + u] = heap[own + u];
    kept[n - 1] = copy;
    heap = this.cover(r + RECORD);
    for (let i = 0; i < n; i++) {
      const e = r + R_ENTRIES + i * ENTRY;
      if (i < n - 1 && heap[e + E_CLOCK] === kept[i]) continue; // the entry there already (its own clock copy)
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
    if (n > this.maxLength) {
      this.maxLength = n;
      this.peak(heap, STAT.maxLength, n);
    }
  }

  /**
   * Under the tables' lock: puts the clock copies {@link loaded}[0 … freed-1] (not 0) on their free lists, and when
   * `cap` > 0 takes a clock copy of capacity `cap` (a power of two ≥ 8), `[cap, …]`, from its free list or new.
   * @returns that copy, or 0 when `cap` is 0.
   */
  exchangeClocks(freed: number, cap: number): number {
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
