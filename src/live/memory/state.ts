/**
 * The live detector's shared state: the memory every thread of one process checks against (PLDI'07 §5: the
 * synchronization event list, the per-location `Info`, a per-location check lock), laid out in flat Int32 arrays
 * over `SharedArrayBuffer`s so that every worker sees the same words.
 *
 * The main thread allocates it (`createState`) before any user code runs and publishes it with
 * `worker_threads.setEnvironmentData`, whose values are structured-cloned into every worker spawned afterwards
 * (nested ones too): a cloned SharedArrayBuffer is the same memory. Workers `attachState`. The synchronization event
 * list is stored in recycled chunks ({@link CHUNK}) and collected by `./sync-list.ts`. The growable buffers
 * (`maxByteLength` reserves address space, `grow` commits zeroed pages) are grown by any thread, and the others
 * re-create their views ({@link StateViews.refresh}); the shadow heap, the largest, is one fixed-length buffer of
 * `--shadow-limit` MiB whose pages the operating system commits when they are first written.
 *
 * All accesses to these words go through the Atomics functions captured here at load time, before the runtime
 * replaces the global ones ({@link rawAtomics}); plain reads are used only for words published by an atomic store that the
 * reader has atomically loaded (ECMA-262 §29: the load synchronizes-with the store, so the plain reads do not race).
 *
 * Locks ({@link lock}) hold `holder thread id + 1` (and bit 30 when someone waits). A thread can be stopped at any
 * point by `worker.terminate()` (V8 TerminateExecution), also while it holds a lock; no other thread may hang on it.
 * The thread that calls `terminate()` marks the worker and its descendants `terminating`, and the parent marks it
 * `dead` when its `'exit'` is emitted. A waiter waits in 10 ms slices and takes a lock over when its holder is
 * dead, or when it is terminating and has held the lock for more than {@link TAKEOVER_MS} (a live thread holds a
 * detector lock for microseconds; a terminated one never lets go). The structures behind a lock are written so
 * that a holder stopped between any two writes leaves them readable: new records are filled before they are
 * linked with one store.
 */

import { getEnvironmentData, setEnvironmentData, threadId } from 'node:worker_threads';
import { CHECK_DECISIONS } from '../../detectors/goldilocks/short-circuit.js';
import { LIVE_DETECTORS, SHADOW_LIMIT_DEFAULT, SHADOW_LIMIT_MAX } from '../options.js';
import { type HeapAtomics, heapAtomics, heapMemory, PAGE_LOCK_STRIDE } from './heap-atomics.js';

/** The Atomics functions as they were before the runtime patched the global object. */
export const rawAtomics = {
  load: Atomics.load,
  store: Atomics.store,
  add: Atomics.add,
  sub: Atomics.sub,
  and: Atomics.and,
  or: Atomics.or,
  xor: Atomics.xor,
  exchange: Atomics.exchange,
  compareExchange: Atomics.compareExchange,
  wait: Atomics.wait,
  waitAsync: (Atomics as unknown as { waitAsync: typeof Atomics.wait }).waitAsync,
  notify: Atomics.notify,
};

/** Key of the state in the environment data (`worker_threads.getEnvironmentData`). */
const ENV_KEY = 'goldilocks.state';

/** Words of the control block (`ctl`). */
export const CTL = {
  /** Cells in the synchronization event list. */
  listEnd: 0,
  /** The list lock: an Atomics operation and the append of its cells are one critical section. */
  listLock: 1,
  /** Next free Int32 index of the shadow heap. */
  heapTop: 2,
  /** Next buffer id. */
  nextBuffer: 4,
  /** Next message id. */
  nextMessage: 5,
  /** Next free Uint16 index of the string heap. */
  strTop: 6,
  /** Lock of the string heap and the string index. */
  strLock: 7,
  /** Number of strings. */
  strCount: 8,
  /** Lock of the race records and the deduplication table. */
  raceLock: 9,
  /** Number of race records (their JSON texts are strings; their string ids follow RACES in `ctl`). */
  raceCount: 10,
  /** Set once `--on-race=abort` stopped the process. */
  aborted: 11,
  /** Threads that attached to the state. */
  threadCount: 12,
  /** Recording (`../record.ts`): next sequence number of a recorded access. */
  recordSeq: 13,
  /** Recording: chunks allocated in the record buffer. */
  recordChunks: 14,
  /** Heap index of the online peer detector's shared tables (`../shadow/fasttrack.ts`, `../shadow/eraser.ts`); 0 until made. */
  peer: 15,
  /** Lock of the online peer's shared tables where the list lock does not serialize them (Eraser's locksets). */
  peerLock: 16,
  /**
   * The shared pool of free `Info` records (`../shadow/info-pool.ts`): a stack of batches, 0 = empty; the first
   * record of a batch, whose own records are linked through their `next` fields (the last's 0), and whose `owner`
   * field links the next batch. Pushed by compare-exchange, popped a batch at a time under `freeInfosLock` (one
   * popper at a time: no ABA).
   */
  freeInfos: 17,
  /**
   * The synchronization event list's storage (`./sync-list.ts`): the first live cell (cells before it are collected;
   * a multiple of {@link CHUNK}), the physical chunk slots allocated in `list`, the stack of recycled slots (slot + 1
   * of its top, linked through each slot's first word; 0 = empty), the list length at which the next collection is
   * due, and the collector's lock (taken with a try, never waited for).
   */
  listBase: 18,
  listSlots: 19,
  freeSlots: 20,
  gcAt: 21,
  gcLock: 22,
  /**
   * Lock of the explicit lockset store (`./locksets.ts`); its free lists by size class follow (`LS_CLASSES` words,
   * before `stats`: checked below).
   */
  lsLock: 23,
  lsFree: 24,
  /**
   * The first record of the benign-race table (`../excuses.ts`: bytes annotated `benignRace`), a chain in the
   * shadow heap pushed by compare-exchange; 0 = none.
   */
  benign: 44,
  /** Lock of the pops from the shared pool of free `Info` records (`freeInfos`). */
  freeInfosLock: 45,
  /**
   * Fork cells appended (`../threads.ts`: a worker started through the runtime's `Worker`), counted in the same
   * list-locked section as the append: while it is 0 and `threadCount` is 1, one thread has ever run (`../shadow/eager.ts`).
   */
  forks: 46,
  /**
   * Join cells appended (`../threads.ts`: a worker's `'exit'` emitted in its parent), counted in the same list-locked
   * section as the append, after it: with `forks` and `threadCount`, whether the main thread alone can still access
   * memory (`../alone.ts`).
   */
  joins: 47,
  /** Counters summed over all threads (see `STATS`; at most {@link STATS_MAX}). */
  stats: 48,
  /**
   * Deduplication of reports: `dedupSize` hashes of location pairs (open addressing, 0 = empty), then per slot
   * its count, its record's string id, then the slots in order of first report (`../races.ts`).
   */
  dedup: 104,
  dedupSize: 1024,
  /** Int32 words of the control block. */
  size: 104 + 4 * 1024,
} as const;

/**
 * Names of the shared counters `i` at `CTL.stats` ({@link addStat}): how each check was decided under the names of the offline
 * detector's statistics (CHECK_DECISIONS, the paper's Table 1 shares; `shortCircuitXact` counts two accesses of
 * transactions of `goldilocks/stm`), so that `goldilocks run --stats` prints them as `goldilocks check --stats` does.
 */
export const STATS = [
  'sameEpoch',
  'accesses',
  'checks',
  ...CHECK_DECISIONS,
  'directTransferCells',
  'walks',
  'walkCells',
  'atomics',
  'races',
  'cellsCollected',
  'eagerRuns',
  'eagerInfos',
  /** Collections run while one thread had ever run: their Infos moved to the cut as its own (`../shadow/eager.ts`). */
  'eagerAlone',
  /**
   * Starts (an owner at a position, or an explicit lockset) whose lockset held every thread that can still run, given
   * those threads' record without a pass over the list (`../shadow/eager.ts` `saturatedStarts`).
   */
  'eagerSaturated',
  /**
   * Starts evaluated as lanes of a chain of nested locksets (an owner's starts, a record's views), stored as views of
   * one record per chain (`../shadow/chains.ts`); the others are bit lanes (`../shadow/batch.ts`).
   */
  'eagerChained',
  /**
   * Checks (of a word, a range, an atomic operation) the main thread skipped while it alone could access memory: every
   * forked thread joined (`../alone.ts`).
   */
  'alone',
  'walksCached',
  /** The most cells the list held at once (live cells, checked at each new chunk): a maximum, not a sum. */
  'listPeak',
  /** Loops whose accesses were checked by one range check (`../spans.ts`), not access by access. */
  'ranges',
  /**
   * Bytes of the same-epoch filters the threads allocated (`../views.ts`; thread-local memory, not in the shadow
   * heap): what they reserve, of which the system commits the pages a thread wrote.
   */
  'filterBytes',
  /** Of `filterBytes`, the bytes of the system pages the threads wrote, counted at their exit (`../filter-census.ts`). */
  'filterResidentBytes',
] as const;
export type StatName = (typeof STATS)[number];
/**
 * Int32 words of `ctl` per counter: a count of 64 bits, low word then high (a run accesses more than 2^32 words:
 * crypt at size large), so that a counter never wraps; {@link addStat}, {@link readStat}.
 */
const STAT_WORDS = 2;
/** Counters `ctl` has room for (from `CTL.stats` to `CTL.dedup`). */
const STATS_MAX = (CTL.dedup - CTL.stats) / STAT_WORDS;
/** Size classes of the explicit lockset store (`./locksets.ts`), records of 8 << k words: free lists at `CTL.lsFree + k`. */
export const LS_CLASSES = 20;
if (CTL.lsFree + LS_CLASSES > CTL.benign)
  throw new Error(`goldilocks: ${LS_CLASSES} lockset free lists overlap the benign-race table`);
if (STATS.length > STATS_MAX) throw new Error(`goldilocks: ${STATS.length} counters, room for ${STATS_MAX}`);
/**
 * Adds `n` (a non-negative safe integer: a thread's local count) to shared counter `i` ({@link STAT}) of `ctl`,
 * atomically per word: the low word by `Atomics.add` in parts below 2^31, a carry into the high word when the low
 * word wraps. Concurrent adds sum exactly; a reader sees the sum once the adding threads have flushed.
 */
export function addStat(ctl: Int32Array, i: number, n: number): void {
  const at = CTL.stats + i * STAT_WORDS;
  for (let rest = n; rest > 0; ) {
    const part = Math.min(rest, 0x7fffffff);
    if ((rawAtomics.add(ctl, at, part) >>> 0) + part > 0xffffffff) rawAtomics.add(ctl, at + 1, 1);
    rest -= part;
  }
}

/** Shared counter `i` of `ctl` ({@link addStat}): a non-negative integer below 2^53. */
export const readStat = (ctl: Int32Array, i: number): number =>
  (rawAtomics.load(ctl, CTL.stats + i * STAT_WORDS + 1) >>> 0) * 2 ** 32 +
  (rawAtomics.load(ctl, CTL.stats + i * STAT_WORDS) >>> 0);

/** Index of each counter in `STATS` (and in a thread's local counts). */
export const STAT = Object.freeze(Object.fromEntries(STATS.map((name, i) => [name, i]))) as Readonly<
  Record<StatName, number>
>;

/**
 * Cell layout of the synchronization event list: 4 Int32 per cell (`kind`, `thread`, `a`, `b`); `kind` is a
 * `SyncKind` of ../../model/sync.ts (its lockset rules: ../../detectors/goldilocks/rules.ts).
 */
export const CELL = 4;
/**
 * The list is stored in chunks of 2^CHUNK_SHIFT cells (64 KiB): the cell at position p (positions count every cell
 * ever appended, so they only grow) is at Int32 index `chunks[p >> CHUNK_SHIFT] + (p & CHUNK_MASK) * CELL` of `list`.
 * Collected chunks' slots are reused for new chunks (`./sync-list.ts`).
 */
export const CHUNK_SHIFT = 12;
export const CHUNK = 1 << CHUNK_SHIFT;
export const CHUNK_MASK = CHUNK - 1;
/** Int32 words of one chunk slot. */
export const CHUNK_INTS = CHUNK * CELL;
/** Positions are Int32: the list takes at most this many cells over a run (collected ones included). */
const POSITIONS_MAX = 2 ** 31 - CHUNK;
/**
 * Tags of the objects in a cell's `a` word (`a = tag << 18 | id`, ids < 2^18): with `b` they form the object's
 * key `a * 2^32 + (b >>> 0)`, exact in a double.
 */
export const Tag = {
  /** A waiter list (Atomics.wait/notify critical section) of (buffer, byte offset). */
  WaiterList: 1,
  /** A lock of the sync library at (buffer, byte offset). */
  Named: 2,
  /** An atomic location: (buffer, byteOffset * 4 + log2(size)). */
  Atomic: 3,
  /** A message: (id high, id low). */
  Message: 4,
  /** A volatile of the sync library at (buffer, byte offset). */
  Volatile: 5,
  /** A BroadcastChannel message: (0, id); every other channel of its name receives it. */
  Broadcast: 6,
  /**
   * A key of goldilocks/annotations' `happensBefore`/`happensAfter` (`../annotation-observer.ts`): 50 bits of
   * the key's hash, (high 18 bits, low 32 bits).
   */
  Annotation: 7,
} as const;
export const TAG_SHIFT = 18;
export const MAX_BUFFERS = 1 << TAG_SHIFT;

const LIST_MAX = 1 << 30;
const STR_MAX = 1 << 30;
const THREADS_MAX = 1 << 22;
const RECORD_MAX = 2 ** 32;
/** Messages whose sender and site are kept for race reports (`../edges.ts`): the first 2^20, 8 bytes each. */
export const SENDS_NAMED = 1 << 20;

/** The settings every thread of a process shares (fixed by the main thread's environment). */
export interface SharedSettings {
  /** `--on-race`: index in `ON_RACE` (`../options.ts`): 0 throw, 1 report, 2 abort. */
  onRace: number;
  /** `--detector`: index in `LIVE_DETECTORS` (`../options.ts`). */
  detector: number;
  /** `--shadow-limit`: the shadow heap's size in MiB (see {@link SHADOW_LIMIT_DEFAULT}); default when absent. */
  shadowLimit?: number;
}

/** One process's shared detector state (same buffers in every thread). */
export interface SharedState {
  ctl: SharedArrayBuffer;
  /** Synchronization event list: chunk slots of {@link CHUNK} cells (growable). */
  list: SharedArrayBuffer;
  /** Per chunk of the list (position >> CHUNK_SHIFT): the Int32 index of its slot in `list` (growable). */
  chunks: SharedArrayBuffer;
  /**
   * Per thread id: the list position where the thread's accesses start their lockset walks (`Shadow.pos`); only
   * grows, and the collector moves it forward (`./sync-list.ts`).
   */
  positions: SharedArrayBuffer;
  /**
   * Shadow heap: per-buffer word tables and access records. Fixed-length, of `settings.shadowLimit` MiB: the
   * allocation is lazily committed by the operating system (zero pages), so only the words used take memory, and
   * its view never needs a refresh. (A growable SharedArrayBuffer would be limited to 4 GiB in Node.js 20.)
   * Up to 4 GiB, the buffer of {@link heapMemory}.
   */
  heap: SharedArrayBuffer;
  /**
   * The shared WebAssembly memory whose buffer is {@link heap}, when it is one (up to 4 GiB): the page locks' atomic
   * operations are then WebAssembly's (`./heap-atomics.ts`, {@link StateViews.pages}).
   */
  heapMemory?: WebAssembly.Memory;
  /** UTF-16 code units of interned strings (growable), and their (start, length) index. */
  str: SharedArrayBuffer;
  strIndex: SharedArrayBuffer;
  /** Per buffer id: [address of its word table's first word (`../shadow/table.ts`), words, byte length + 1]. */
  buffers: SharedArrayBuffer;
  /**
   * Per buffer id: where it was made and what it holds, for race reports (`../buffers.ts`): [string id of the site
   * + 1 (0: not seen made), thread id + 1, kind (0 SharedArrayBuffer, 1 WebAssembly.Memory), string id + 1 of the
   * JSON object naming the goldilocks/sync primitives in it by byte offset (0: none; `../lock-names.ts`)]
   * (growable).
   */
  allocations: SharedArrayBuffer;
  /** Per thread id: bit 0 dead, bit 1 terminating, bit 2 forked (the fork cell is in the list). */
  threads: SharedArrayBuffer;
  /** Per thread id: the parent's thread id + 1. */
  parents: SharedArrayBuffer;
  /**
   * Per message id below {@link SENDS_NAMED}: [string id + 1 of its `postMessage` call site, sender thread id + 1]
   * (0: not noted), for race reports (`../edges.ts`) (growable).
   */
  sends: SharedArrayBuffer;
  /** Per thread id: string id + 1 of the `new Worker(...)` that started it (0: none), for race reports (growable). */
  spawns: SharedArrayBuffer;
  /** Per-thread chunks of recorded accesses (growable), when the run is recorded (`../record.ts`). */
  record?: SharedArrayBuffer;
  settings: SharedSettings;
}

export const DEAD = 1;
export const TERMINATING = 2;
export const FORKED = 4;

const MiB = 1 << 20;

function growable(initial: number, max: number): SharedArrayBuffer {
  return new SharedArrayBuffer(initial, { maxByteLength: max });
}

/**
 * Allocates the state (main thread) and publishes it to future workers; with `record`, also the buffer of
 * `../record.ts`.
 */
export function createState(settings: SharedSettings, record = false): SharedState {
  const limit = settings.shadowLimit ?? SHADOW_LIMIT_DEFAULT;
  const memory = heapMemory(limit * MiB);
  const state: SharedState = {
    ctl: new SharedArrayBuffer(CTL.size * 4),
    list: growable(CHUNK_INTS * 4, LIST_MAX),
    chunks: growable(1 << 12, (POSITIONS_MAX >> CHUNK_SHIFT) * 4 + 4),
    positions: growable(1 << 12, THREADS_MAX),
    heap: (memory?.buffer as SharedArrayBuffer | undefined) ?? reserveHeap(limit),
    heapMemory: memory,
    str: growable(1 << 16, STR_MAX),
    strIndex: growable(1 << 14, STR_MAX),
    buffers: growable(1 << 12, MAX_BUFFERS * 12),
    allocations: growable(1 << 12, MAX_BUFFERS * 16),
    threads: growable(1 << 12, THREADS_MAX),
    parents: growable(1 << 12, THREADS_MAX),
    sends: growable(1 << 12, SENDS_NAMED * 8),
    spawns: growable(1 << 12, THREADS_MAX),
    record: record ? growable(1 << 16, RECORD_MAX) : undefined,
    settings,
  };
  const ctl = new Int32Array(state.ctl);
  ctl[CTL.heapTop] = 16; // index 0 stays the null record
  ctl[CTL.gcAt] = record ? NEVER : firstCollection(settings.detector);
  setEnvironmentData(ENV_KEY, state);
  return state;
}

/** The shadow heap of `limit` MiB. @throws ShadowLimitError when the system refuses the reservation. */
function reserveHeap(limit: number): SharedArrayBuffer {
  try {
    return new SharedArrayBuffer(limit * MiB);
  } catch {
    throw new ShadowLimitError(
      `goldilocks: could not reserve ${limit} MiB for the detector's state (--shadow-limit); lower the limit`,
    );
  }
}

/** The state published by the main thread, or undefined in a process where none was created. */
export function attachState(): SharedState | undefined {
  return getEnvironmentData(ENV_KEY) as SharedState | undefined;
}

/**
 * Views over a {@link SharedState} for the calling thread. They are fixed-length views of the buffers' current
 * lengths — a length-tracking view of a growable SharedArrayBuffer is about 20× slower to index in Node 20 — so
 * code that may meet an index another thread made valid by growing a buffer calls {@link refresh} first.
 */
export class StateViews {
  ctl!: Int32Array;
  list!: Int32Array;
  chunks!: Int32Array;
  positions!: Int32Array;
  heap!: Int32Array;
  str!: Uint16Array;
  strIndex!: Int32Array;
  buffers!: Int32Array;
  threads!: Int32Array;
  parents!: Int32Array;
  /** This thread's lock word value (`threadId + 1`). */
  readonly self = threadId + 1;
  /**
   * Called by {@link appendCell} after each cell this thread appends (list lock held): how an online peer detector
   * (`../shadow/fasttrack.ts`) updates its vector clocks in list order. Undefined for Goldilocks, which walks the list.
   */
  onCell: ((kind: number, thread: number, a: number, b: number) => void) | undefined = undefined;
  /** Set by {@link appendCell} when the list reached `CTL.gcAt`: the thread collects it after its list lock. */
  gcDue = false;

  /**
   * Compare-exchange and exchange of a heap word, for the page locks ({@link lockPage}, {@link unlockPage}):
   * WebAssembly's when the heap is a WebAssembly memory (`./heap-atomics.ts`), else `Atomics`.
   */
  readonly pages: HeapAtomics;

  constructor(readonly state: SharedState) {
    this.refresh();
    const heap = this.heap;
    this.pages =
      state.heapMemory !== undefined
        ? heapAtomics(state.heapMemory)
        : {
            cas: (i, expected, value) => rawAtomics.compareExchange(heap, i, expected, value),
            xchg: (i, value) => rawAtomics.exchange(heap, i, value),
            lockRange: (first, n, self) => {
              let k = 0;
              while (k < n && rawAtomics.compareExchange(heap, first + k * PAGE_LOCK_STRIDE, 0, self) === 0)
                k++;
              return k;
            },
            unlockRange: (first, n) => {
              let k = 0;
              while (k < n && !(rawAtomics.exchange(heap, first + k * PAGE_LOCK_STRIDE, 0) & WAITERS)) k++;
              return k;
            },
          };
  }

  /** Re-creates every view at its buffer's current length. */
  refresh(): void {
    const s = this.state;
    this.ctl = new Int32Array(s.ctl);
    this.list = new Int32Array(s.list, 0, s.list.byteLength >> 2);
    this.chunks = new Int32Array(s.chunks, 0, s.chunks.byteLength >> 2);
    this.positions = new Int32Array(s.positions, 0, s.positions.byteLength >> 2);
    this.heap = new Int32Array(s.heap); // up to 2^31 words: a length past Int32 (`>> 2` would overflow)
    this.str = new Uint16Array(s.str, 0, s.str.byteLength >> 1);
    this.strIndex = new Int32Array(s.strIndex, 0, s.strIndex.byteLength >> 2);
    this.buffers = new Int32Array(s.buffers, 0, s.buffers.byteLength >> 2);
    this.threads = new Int32Array(s.threads, 0, s.threads.byteLength >> 2);
    this.parents = new Int32Array(s.parents, 0, s.parents.byteLength >> 2);
  }
}

/** Grows `buffer` (growable) to hold at least `bytes`; concurrent growth by other threads is fine. */
export function ensureBytes(buffer: SharedArrayBuffer, bytes: number): void {
  const max = buffer.maxByteLength;
  while (buffer.byteLength < bytes) {
    if (bytes > max)
      throw new RangeError(`goldilocks: detector state exhausted (${bytes} bytes needed, ${max} reserved)`);
    const want = Math.min(max, Math.max(bytes, buffer.byteLength * 2));
    try {
      buffer.grow(want);
    } catch {
      // another thread grew it past `want` first; loop re-reads the length
      if (buffer.byteLength < want)
        throw new RangeError(`goldilocks: could not grow detector state to ${want}`);
    }
  }
}

/** Ensures the per-thread arrays cover thread id `t`. */
export function ensureThread(s: StateViews, t: number): void {
  ensureBytes(s.state.threads, (t + 1) * 4);
  ensureBytes(s.state.parents, (t + 1) * 4);
  ensureBytes(s.state.positions, (t + 1) * 4);
  if (t >= s.threads.length || t >= s.parents.length || t >= s.positions.length) s.refresh();
}

/** How long a terminating holder may keep a lock before a waiter takes it over (ms). */
export const TAKEOVER_MS = 1000;
const WAITERS = 1 << 30;

/** Does the calling thread hold the lock at `words[i]`. */
export const holds = (s: StateViews, words: Int32Array, i: number): boolean =>
  (rawAtomics.load(words, i) & ~WAITERS) === s.self;

/**
 * Takes the lock at `words[i]` for the calling thread. Not reentrant.
 * @throws never; spins, then waits in slices (see the file header for takeover).
 */
export function lock(s: StateViews, words: Int32Array, i: number): void {
  if (rawAtomics.compareExchange(words, i, 0, s.self) === 0) return;
  // a few microseconds of spinning, about one atomic operation's critical section: a thread that waits on the futex
  // costs itself the wake-up and the holder a notify at each release after (two threads' atomic operations on one
  // page, each ~1 µs under its lock: after 64 loads, ~4 s of bench/programs/ring-log.mjs's two threads' time went
  // to `lock`, a CPU profile; docs/BENCHMARKS.md)
  for (let spin = 0; spin < 2048; spin++) {
    if (rawAtomics.load(words, i) === 0 && rawAtomics.compareExchange(words, i, 0, s.self) === 0) return;
  }
  let holder = 0;
  let since = 0;
  for (;;) {
    const cur = rawAtomics.load(words, i);
    if (cur === 0) {
      if (rawAtomics.compareExchange(words, i, 0, s.self | WAITERS) === 0) return;
      continue;
    }
    const h = cur & ~WAITERS;
    if (h !== holder) {
      holder = h;
      since = Date.now();
    }
    if (h - 1 >= s.threads.length) s.refresh();
    const flags = h - 1 < s.threads.length ? rawAtomics.load(s.threads, h - 1) : 0;
    if (flags & DEAD || (flags & TERMINATING && Date.now() - since > TAKEOVER_MS)) {
      if (rawAtomics.compareExchange(words, i, cur, s.self | WAITERS) === cur) return;
      continue;
    }
    if (!(cur & WAITERS) && rawAtomics.compareExchange(words, i, cur, cur | WAITERS) !== cur) continue;
    rawAtomics.wait(words, i, cur | WAITERS, 10);
  }
}

/** Releases the lock at `words[i]` (held by the calling thread) and wakes a waiter if there is one. */
export function unlock(words: Int32Array, i: number): void {
  if (rawAtomics.exchange(words, i, 0) & WAITERS) rawAtomics.notify(words, i, 1);
}

/**
 * {@link lock} of the heap word `i` (a page's check lock), its uncontended case by {@link StateViews.pages}: one
 * compare-exchange.
 */
export function lockPage(s: StateViews, i: number): void {
  if (s.pages.cas(i, 0, s.self) !== 0) lock(s, s.heap, i);
}

/** {@link unlock} of the heap word `i` by {@link StateViews.pages}. */
export function unlockPage(s: StateViews, i: number): void {
  if (s.pages.xchg(i, 0) & WAITERS) rawAtomics.notify(s.heap, i, 1);
}

/**
 * Appends one cell to the synchronization event list. Call with the list lock held.
 * @returns the cell's position.
 */
export function appendCell(s: StateViews, kind: number, thread: number, a: number, b: number): number {
  const pos = s.ctl[CTL.listEnd];
  if ((pos & CHUNK_MASK) === 0) newChunk(s, pos);
  else if (pos >> CHUNK_SHIFT >= s.chunks.length) s.refresh(); // another thread grew the chunk table
  const at = s.chunks[pos >> CHUNK_SHIFT] + (pos & CHUNK_MASK) * CELL;
  if (at + CELL > s.list.length) s.refresh(); // another thread grew the list for this chunk
  const l = s.list;
  l[at] = kind;
  l[at + 1] = thread;
  l[at + 2] = a;
  l[at + 3] = b;
  rawAtomics.store(s.ctl, CTL.listEnd, pos + 1);
  s.onCell?.(kind, thread, a, b);
  return pos;
}

/** {@link appendCell} of position `pos`, the first of a chunk: gives the chunk a slot, a recycled one if any. */
function newChunk(s: StateViews, pos: number): void {
  if (pos >= POSITIONS_MAX)
    throw new RangeError(`goldilocks: detector state exhausted (${pos} synchronization events)`);
  const ctl = s.ctl;
  const c = pos >> CHUNK_SHIFT;
  let at: number;
  const free = ctl[CTL.freeSlots];
  if (free !== 0) {
    at = (free - 1) * CHUNK_INTS;
    ctl[CTL.freeSlots] = s.list[at];
  } else {
    const slot = ctl[CTL.listSlots];
    at = slot * CHUNK_INTS;
    ensureBytes(s.state.list, (at + CHUNK_INTS) * 4);
    ctl[CTL.listSlots] = slot + 1;
  }
  ensureBytes(s.state.chunks, (c + 1) * 4);
  if (c >= s.chunks.length || at + CHUNK_INTS > s.list.length) s.refresh();
  s.chunks[c] = at;
  const live = pos - ctl[CTL.listBase];
  const peak = CTL.stats + STAT.listPeak * STAT_WORDS; // a maximum below 2^31: its low word alone
  if (live > ctl[peak]) rawAtomics.store(ctl, peak, live);
  if (pos >= ctl[CTL.gcAt]) s.gcDue = true;
}

/** `CTL.gcAt` when the list is never collected (a recorded run, `../record.ts`). */
export const NEVER = 2 ** 31 - 1;
/**
 * Goldilocks keeps at least this many recent cells after a collection (the oldest stretch before them is evaluated
 * partially-eagerly, `../shadow/eager.ts`); the online peers, which never walk the list, keep none.
 */
export const EAGER_MIN = 1 << 16;
/** The peers collect every PEER_STRETCH cells. */
export const PEER_STRETCH = 4 * CHUNK;
/** The list length at which its first collection is due, for detector `d` (index in {@link LIVE_DETECTORS}). */
const firstCollection = (d: number): number =>
  LIVE_DETECTORS[d] === 'goldilocks' ? 2 * EAGER_MIN : PEER_STRETCH;

/**
 * The heap index of the online peer detector's shared tables (`CTL.peer`), allocating `ints` zeroed words for
 * them in the first thread that asks (the main thread, before any worker exists).
 */
export function peerTables(s: StateViews, ints: number): number {
  const tables = rawAtomics.load(s.ctl, CTL.peer);
  if (tables !== 0) return tables;
  const fresh = allocHeap(s, ints);
  return rawAtomics.compareExchange(s.ctl, CTL.peer, 0, fresh) || fresh;
}

/**
 * The error of a run whose shadow state outgrew the heap (`--shadow-limit`): its message names the limit, what was
 * asked, and the option that raises it.
 */
export class ShadowLimitError extends Error {
  override name = 'ShadowLimitError';
}

/** The message of a {@link ShadowLimitError}: `limit` MiB reserved, `used` + `ints` words asked. */
export function shadowLimitMessage(limit: number, used: number, ints: number): string {
  const asked = Math.ceil(((used + ints) * 4) / MiB);
  const raise =
    limit < SHADOW_LIMIT_MAX
      ? `raise it with 'goldilocks run --shadow-limit <MiB>' (GOLDILOCKS_SHADOW_LIMIT; at most ${SHADOW_LIMIT_MAX})`
      : `${SHADOW_LIMIT_MAX} MiB is the most the runtime can shadow: share less memory per process`;
  return (
    `goldilocks: the shadow memory limit is reached: the detector's state for this process's shared memory ` +
    `needs ${asked} MiB, the limit is ${limit} MiB (--shadow-limit); ${raise}`
  );
}

/**
 * Allocates `ints` zeroed Int32 words of the shadow heap (a compare-exchange on `CTL.heapTop`, so that the top never
 * passes the heap's end nor wraps past Int32).
 * @returns the index of the first. @throws ShadowLimitError when the heap is exhausted ({@link shadowLimitMessage}).
 */
export function allocHeap(s: StateViews, ints: number): number {
  const heap = s.heap;
  for (;;) {
    const base = rawAtomics.load(s.ctl, CTL.heapTop);
    if (ints > heap.length - base)
      throw new ShadowLimitError(shadowLimitMessage(Math.round((heap.length * 4) / MiB), base, ints));
    if (rawAtomics.compareExchange(s.ctl, CTL.heapTop, base, base + ints) === base) return base;
  }
}
