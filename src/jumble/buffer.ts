/**
 * The write buffer of one memory location (Flanagan & Freund, "Adversarial Memory for Detecting Destructive Races",
 * PLDI'10, §4.1, Figure 6: `W_x = v_1@K_1 · … · v_n@K_n`, a non-empty sequence of values with the vector clock of
 * their writes, in the order the writes happened; initially `0@⊥`), and the per-location state of the adversary
 * (§5.1: the last value returned, per-thread counts of consecutive stale reads). Spec: ../shared/JUMBLE.md §4.2,
 * §11.2.
 *
 * Pure and storage-agnostic, shared by the offline analysis (`./offline/`) and, later, the live runtime: no Node
 * imports, entries kept as parallel typed arrays (struct of arrays) indexed 0 (oldest) … length-1 (newest). An entry
 * is (value, writer, epoch, clock, seq, site, line, lo, hi):
 * - `value`: the value's key, a number compared with `===` (offline: the trace's value id, or {@link INITIAL_KEY}
 *   for an initial-value text; live: a key the runtime derives from the bytes). {@link UNKNOWN_VALUE} (NaN) marks a
 *   write whose value is unknown: it equals no value, itself included.
 * - `tid`: the writer t_i ({@link NO_THREAD} for the initial entry); `epoch`: K_i(t_i), the writer's own clock
 *   component at the write (FastTrack's epoch, JUMBLE.md §4.6.2).
 * - the full clock K_i, row i of a {@link ClockTable} (src/detectors/vectorclock/clocks.ts; needed as K_j for older
 *   entries: JUMBLE.md §4.6.3); the initial entry's row is ⊥ (zeros).
 * - `seq`: the caller's position of the write (offline: the event index; -1 for the initial entry); `site`: its
 *   source-location id (-1: none); `line`: the trace line of the write (offline; 0 when none).
 * - `lo`, `hi`: an optional 8-byte payload as two 4-byte halves (live: the bytes written; tearing composes halves
 *   of two entries, §5.2 "Non-Atomic Longs and Doubles"); offline, `lo` holds the value id as the trace wrote it
 *   (the key merges the initial-value texts) and `hi` is 0.
 *
 * Removal compacts the arrays (at most bound + 1 entries, 33 by default), so positions are stable only between
 * removals.
 */
import { ClockTable } from '../detectors/vectorclock/clocks.js';
import { grow } from '../model/interner.js';

/** [REMOVE OLDEST]'s default bound on a buffer's length (§5.2: "typically 32"). */
export const DEFAULT_BOUND = 32;
/** The key of a value that is not known (a write without `=V`): it equals no key, itself included. */
export const UNKNOWN_VALUE = Number.NaN;
/** The writer of the initial entry `0@⊥`. */
export const NO_THREAD = -1;

/** The write buffer W_x of one location, with its statistics and its adversary state (see the file header). */
export class WriteBuffer {
  /** Entries held (n ≥ 1). */
  length = 0;
  /** Entries the arrays can hold. */
  capacity: number;
  value: Float64Array;
  tid: Int32Array;
  epoch: Int32Array;
  seq: Float64Array;
  site: Int32Array;
  line: Float64Array;
  lo: Int32Array;
  hi: Int32Array;
  /** Entry i's clock K_i: row i of this table (rows ≥ capacity). */
  readonly clocks: ClockTable;

  // -- statistics (Figure 10 of the paper; JUMBLE.md §11.5)
  /** Writes appended since creation. */
  writes = 0;
  /** Writes since the last reset (alloc): the buffer's length had nothing been removed ("no compression"). */
  private writesSinceReset = 0;
  /** Largest {@link writesSinceReset}: Figure 10's "max buffer, no comp." */
  maxUncompressed = 0;
  /** Largest length reached after garbage collection: Figure 10's "max buffer, with comp.". */
  maxLength = 1;
  /** Entries removed by [GC1], [GC2], [REMOVE OLDEST]. */
  gc1Removed = 0;
  gc2Removed = 0;
  oldestRemoved = 0;
  /** [REMOVE OLDEST] removals of an entry some thread that may still act could still read (freedom lost). */
  droppedVisible = 0;

  /**
   * Whether the entries form a chain in happens-before: K_i ⊑ K_j for every i < j (initially true: one entry). Then
   * the entries whose clocks are ⊑ a thread's clock form a prefix, so its visible set is the entries from the newest
   * of them on (`./visible.ts`, O(k) without reading the clock rows). Kept by {@link append} (epoch test of the
   * previous newest entry against the writer's clock, ../shared/JUMBLE.md §4.6.2; transitivity does the rest) and
   * {@link reset}; removals keep a chain a chain, and {@link rechain} recomputes it after removals from a non-chain.
   */
  chain = true;

  /**
   * Whether the location holds 8-byte values a read may tear into halves of two writes (§5.2; Java long/double,
   * JavaScript Float64, non-atomic BigInt64, DataView 8-byte reads — never Int8…Uint32 elements): set by the caller.
   */
  tearable = false;

  // -- adversary state (§5.1; JUMBLE.md §11.3), kept by ./heuristics.ts
  /** The key of the value most recently returned by a read of this location (any thread); NaN: none or torn. */
  last = Number.NaN;
  /** Per thread: consecutive stale reads (returned value ≠ newest), for the fairness rule. */
  stale: Int32Array = new Int32Array(0);
  /** Per thread: the half the next torn read takes from its primary entry (0 not drawn yet, 1 high, 2 low). */
  half: Uint8Array = new Uint8Array(0);

  /**
   * A buffer holding the initial entry `initialValue@⊥`.
   * @param initialValue the key of the initial value (the zero / null / false of §4.1).
   * @param width clock width (grows with {@link ensureWidth}).
   * @param capacity entries allocated at first (doubled as needed).
   * @param maxCapacity the most entries ever held at once: the growth stops there (the caller's bound + 1 for
   *   [REMOVE OLDEST]; beyond it, appends still grow the arrays).
   */
  constructor(
    readonly initialValue = 0,
    width = 8,
    capacity = 4,
    private readonly maxCapacity = DEFAULT_BOUND + 1,
  ) {
    this.capacity = capacity;
    this.value = new Float64Array(capacity);
    this.tid = new Int32Array(capacity);
    this.epoch = new Int32Array(capacity);
    this.seq = new Float64Array(capacity);
    this.site = new Int32Array(capacity);
    this.line = new Float64Array(capacity);
    this.lo = new Int32Array(capacity);
    this.hi = new Int32Array(capacity);
    this.clocks = new ClockTable(width, capacity);
    this.reset();
  }

  /**
   * Back to the single initial entry (a fresh object's fields are default-initialized: JUMBLE.md §12, `alloc`).
   * Statistics other than the current run of writes are kept; the adversary state is cleared.
   */
  reset(): void {
    this.length = 1;
    this.value[0] = this.initialValue;
    this.tid[0] = NO_THREAD;
    this.epoch[0] = 0;
    this.seq[0] = -1;
    this.site[0] = -1;
    this.line[0] = 0;
    this.lo[0] = 0;
    this.hi[0] = 0;
    this.clocks.clear(0);
    this.writesSinceReset = 0;
    this.chain = true;
    this.last = Number.NaN;
    this.stale.fill(0);
  }

  /** Int32 per clock row (thread ids 0 … width-1). */
  get width(): number {
    return this.clocks.width;
  }

  /** The clock rows: entry i's clock K_i at `clock[i * width …]`. */
  get clock(): Int32Array {
    return this.clocks.data;
  }

  /** Makes thread ids 0 … w-1 addressable in the clock rows (re-lays them out). */
  ensureWidth(w: number): void {
    this.clocks.ensureWidth(w);
  }

  /** Per-thread adversary state for threads 0 … t. */
  ensureThread(t: number): void {
    if (t < this.stale.length) return;
    const n = Math.max(t + 1, this.stale.length * 2, 8);
    this.stale = grow(this.stale, n);
    this.half = grow(this.half, n);
  }

  /**
   * [WRITE] (Figure 6): appends `value@C_t`, where C_t is thread t's clock, `cw` Int32 at `C[off …]`; the entry's
   * epoch is C_t(t). Garbage collection is the caller's (`./gc.ts` {@link write}).
   */
  append(
    value: number,
    t: number,
    C: Int32Array,
    off: number,
    cw: number,
    seq: number,
    site: number,
    line = 0,
    lo = 0,
    hi = 0,
  ): void {
    this.ensureWidth(Math.max(cw, t + 1));
    if (this.length === this.capacity) this.grow();
    if (this.chain && this.length > 0) this.chain = this.before(this.length - 1, C, off, cw);
    const i = this.length++;
    this.value[i] = value;
    this.tid[i] = t;
    this.epoch[i] = C[off + t];
    this.seq[i] = seq;
    this.site[i] = site;
    this.line[i] = line;
    this.lo[i] = lo;
    this.hi[i] = hi;
    const w = this.width;
    this.clock.set(C.subarray(off, off + cw), i * w);
    if (cw < w) this.clock.fill(0, i * w + cw, (i + 1) * w);
    this.writes++;
    if (++this.writesSinceReset > this.maxUncompressed) this.maxUncompressed = this.writesSinceReset;
    if (this.length > this.maxLength) this.maxLength = this.length;
  }

  /**
   * Whether entry i happens before the clock X (`xw` Int32 at `X[off …]`): K_i ⊑ X by the epoch test
   * K_i(t_i) ≤ X(t_i) (../shared/JUMBLE.md §4.6.2); always for the initial entry ⊥.
   */
  before(i: number, X: Int32Array, off: number, xw: number): boolean {
    const t = this.tid[i];
    return t < 0 || this.epoch[i] <= (t < xw ? X[off + t] : 0);
  }

  /** {@link chain} recomputed from the clock rows: K_i ⊑ K_{i+1} for each consecutive pair (transitivity). */
  rechain(): void {
    const w = this.width;
    const clock = this.clock;
    let chain = true;
    for (let i = 0; chain && i + 1 < this.length; i++) chain = this.before(i, clock, (i + 1) * w, w);
    this.chain = chain;
  }

  /** Removes entry i (0 = oldest), keeping the others in order. */
  removeAt(i: number): void {
    const n = this.length - 1;
    if (i < n) {
      this.value.copyWithin(i, i + 1, n + 1);
      this.tid.copyWithin(i, i + 1, n + 1);
      this.epoch.copyWithin(i, i + 1, n + 1);
      this.seq.copyWithin(i, i + 1, n + 1);
      this.site.copyWithin(i, i + 1, n + 1);
      this.line.copyWithin(i, i + 1, n + 1);
      this.lo.copyWithin(i, i + 1, n + 1);
      this.hi.copyWithin(i, i + 1, n + 1);
      const w = this.width;
      this.clock.copyWithin(i * w, (i + 1) * w, (n + 1) * w);
    }
    this.length = n;
  }

  /** Doubles the capacity. */
  private grow(): void {
    const twice = this.capacity * 2;
    const cap = this.capacity < this.maxCapacity ? Math.min(twice, this.maxCapacity) : twice;
    this.value = grow(this.value, cap);
    this.seq = grow(this.seq, cap);
    this.line = grow(this.line, cap);
    this.tid = grow(this.tid, cap);
    this.epoch = grow(this.epoch, cap);
    this.site = grow(this.site, cap);
    this.lo = grow(this.lo, cap);
    this.hi = grow(this.hi, cap);
    this.clocks.ensureRows(cap);
    this.capacity = cap;
  }
}
