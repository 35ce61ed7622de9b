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
 * **Cost** (issue 22 §5). A read of a chain whose newest entry happens before it (the accesses of the location are
 * ordered, as in a race-free program) sees that entry alone: decided from the record's `chain` word and one epoch
 * test, without loading the buffer, it returns the memory's bytes (the newest write: what every heuristic returns
 * when there is no choice). Otherwise the buffer is loaded, its clock rows only when it is not a chain (a chain's
 * visible set and [GC1] need epochs alone: `../../jumble/visible.ts`), and the shared core decides. The buffers'
 * records in the shadow heap, their layout, locks and the run's counters: `./records.ts`.
 */
import { NO_THREAD, UNKNOWN_VALUE, type WriteBuffer } from '../../jumble/buffer.js';
import { collect, GC1_FROM, type LiveThreads } from '../../jumble/gc.js';
import type { Adversary } from '../../jumble/heuristics.js';
import { elementOf, type WordMemory } from '../locked.js';
import type { StateViews } from '../memory/state.js';
import { getString } from '../memory/strings.js';
import { type ReadLog, valueText } from './log.js';
import {
  BOUND,
  BufferRecords,
  E_HI,
  E_KNOWN,
  E_LO,
  ENTRY,
  keyOf,
  R_CHAIN,
  R_ENTRIES,
  R_HALF,
  R_LENGTH,
  R_MASK,
  R_NEXT,
  R_WORD,
  RECORD,
  SLOTS,
  STAT,
} from './records.js';

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
  /** The write buffer records in the shadow heap, and this thread's counts. */
  private readonly rec: BufferRecords;
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
   * @throws Error in a worker when the main thread made no write buffers.
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
    this.rec = new BufferRecords(s, t, clock);
  }

  /** The counters of the run, by `JUMBLE_STATS` name (`./records.ts` BufferRecords.stats). */
  stats(): Record<string, number> {
    return this.rec.stats();
  }

  /** Adds this thread's counts to the run's counters (at its exit). */
  flush(): void {
    this.rec.flush();
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
    const rec = this.rec;
    if (known && rec.find(word, mask) === 0) rec.make(word, mask, realLo, realHi);
    let heap = this.s.heap;
    for (let r = rec.first(word); r !== 0; r = heap[r + R_NEXT]) {
      heap = rec.cover(r + RECORD);
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
    const rec = this.rec;
    const own = this.clock();
    rec.cover(r + RECORD);
    let heap = rec.cover(own + 1 + rec.cover(own + 1)[own]);
    const cap = heap[own];
    // still a chain after the append (the newest entry happens before this write)? then no clock row is needed
    const chain = heap[r + R_CHAIN] === 1 && rec.newestBefore(heap, r, heap[r + R_LENGTH], own);
    const b = rec.load(r, !chain);
    heap = this.s.heap;
    const { gc1Removed, gc2Removed, oldestRemoved, droppedVisible } = b;
    // the entry's clock copy (`seq`) is given by storeEntries, once the collection has freed some
    b.append(known ? keyOf(lo, hi) : UNKNOWN_VALUE, this.t, heap, own + 1, cap, -1, site, 0, lo, hi);
    collect(b, this.liveThreads(element && b.length > GC1_FROM), BOUND);
    rec.count(known ? STAT.writes : STAT.unknownWrites);
    if (b.gc1Removed > gc1Removed) rec.count(STAT.gc1Removed, b.gc1Removed - gc1Removed);
    if (b.gc2Removed > gc2Removed) rec.count(STAT.gc2Removed, b.gc2Removed - gc2Removed);
    if (b.oldestRemoved > oldestRemoved) rec.count(STAT.removeOldest, b.oldestRemoved - oldestRemoved);
    if (b.droppedVisible > droppedVisible) rec.count(STAT.droppedVisible, b.droppedVisible - droppedVisible);
    rec.wrote(r);
    rec.storeEntries(r, b, own);
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
    const rec = this.rec;
    const r = rec.find(word, mask);
    if (r === 0) {
      rec.make(word, mask, lo, hi);
      rec.count(STAT.reads);
      return false;
    }
    rec.count(STAT.reads);
    let heap = rec.cover(r + RECORD);
    const n = heap[r + R_LENGTH];
    const newest = r + R_ENTRIES + (n - 1) * ENTRY;
    if (heap[newest + E_KNOWN] === 1 && (heap[newest + E_LO] !== lo || heap[newest + E_HI] !== hi)) {
      rec.resync(r, lo, hi); // a write the runtime did not see: start again from memory
      return false;
    }
    const own = this.clock();
    heap = rec.cover(own + 1 + rec.cover(own + 1)[own]);
    const chain = heap[r + R_CHAIN] === 1;
    if (chain && rec.newestBefore(heap, r, n, own)) {
      // the newest entry alone is visible (no choice): what adversary.read returns, without loading the buffer
      if (heap[newest + E_KNOWN] !== 1) {
        rec.count(STAT.memoryReads);
        return false;
      }
      this.lo = lo;
      this.hi = hi;
      rec.adversaryState(r, keyOf(lo, hi), 0);
      return true;
    }
    const b = rec.load(r, !chain);
    b.tearable = tearable && mask === 0xff;
    heap = this.s.heap;
    const adversary = this.adversary;
    const i = adversary.read(b, this.t, heap, own + 1, heap[own]);
    if (adversary.distinct > 1) rec.count(STAT.choiceReads);
    const j = adversary.torn ? adversary.second : i;
    if (Number.isNaN(b.value[i]) || Number.isNaN(b.value[j])) {
      rec.count(STAT.memoryReads);
      return false; // the memory: the newest write, always visible
    }
    if (adversary.torn) {
      const high = adversary.highFromEntry ? i : j;
      const low = adversary.highFromEntry ? j : i;
      this.lo = b.lo[low];
      this.hi = b.hi[high];
      rec.count(STAT.tornReads);
    } else {
      this.lo = b.lo[i];
      this.hi = b.hi[i];
    }
    if (adversary.stale) rec.count(STAT.staleReads);
    if (this.log?.open && adversary.distinct > 1 && place !== undefined) this.logRead(b, place, lo, hi);
    rec.adversaryState(r, b.last, b.stale[this.t]);
    rec.cover(r + RECORD)[r + R_HALF + (this.t & (SLOTS - 1))] = b.half[this.t];
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
}
