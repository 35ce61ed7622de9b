/**
 * What a recorded run could have read: the Operational PJMM (Flanagan & Freund, PLDI'10, §4.1 Figure 6) over a trace
 * with values (`r(x)=V`, `w(x)=V`: docs/FORMATS.md), classifying every read (../shared/JUMBLE.md §12):
 *
 * | class                   | condition (v the value read, vn the newest entry's, D the distinct visible values) |
 * |-------------------------|------------------------------------------------------------------------------------|
 * | `sc`                    | v = vn and |D| = 1: no freedom                                                      |
 * | `sc-violation-possible` | v = vn and |D| ≥ 2: SC here, but adversarial memory could have returned the others  |
 * | `stale-observed`        | v ≠ vn, v ∈ D: the run itself read an older visible write (legal under PJMM/JMM/ECMA) |
 * | `future-read`           | v ∉ D, but a later write of v to x does not happen after the read: legal under the   |
 * |                         | HBMM and ECMA-262, not under the PJMM (Figure 4); resolved when that write comes     |
 * | `unexplained`           | none of the above: a write missing from the trace, an unknown initial value, or a    |
 * |                         | value out of thin air                                                               |
 * | `no-value`              | the read has no `=V`: only its visible entries are counted                          |
 *
 * The trace does not say which write a read read from: the newest visible entry with the value read is taken (the
 * most SC-like explanation). A write without a value (or the data write of an atomic operation, `awd`, or a write in
 * a commit) has an unknown value that equals no other; a read whose value matches no known visible value but which
 * sees such a write is explained by the newest of them. Initial values: the texts of {@link DEFAULT_INITIAL_VALUES}
 * all mean the initial entry's `0@⊥`; `alloc(o)` resets the buffers of o's variables to it.
 *
 * Happens-before is the project's vector-clock engine (the rules of src/detectors/vectorclock/rules.ts, via
 * {@link VectorClockDetector}: locks, volatiles, ECMA-262 atomics, fork/join, commits); the write buffers are the
 * shared core (../buffer.ts, ../visible.ts, ../gc.ts) with [GC1] over the threads that may still act (./threads.ts).
 * Memory: one bounded buffer per variable accessed, at most `maxReports` examples per class and {@link MAX_PENDING}
 * unexplained reads waiting for a future write, whatever the trace's length.
 */
import type { DetectorContext } from '../../detectors/detector.js';
import { VectorClockDetector } from '../../detectors/vectorclock/base.js';
import type { EventBatch } from '../../model/events.js';
import { growAtLeast } from '../../model/interner.js';
import { DEFAULT_BOUND, UNKNOWN_VALUE, WriteBuffer } from '../buffer.js';
import { collect } from '../gc.js';
import { distinct, visible } from '../visible.js';
import { LiveSet, type ThreadSpans } from './threads.js';

/** The read classes, in report order. */
export const READ_CLASSES = [
  'sc',
  'sc-violation-possible',
  'stale-observed',
  'future-read',
  'unexplained',
  'no-value',
] as const;
export type ReadClass = (typeof READ_CLASSES)[number];
const SC = 0;
const SC_VIOLATION = 1;
const STALE = 2;
const FUTURE = 3;
const UNEXPLAINED = 4;
const NO_VALUE = 5;

/** Unexplained reads kept waiting for a later write of their value (beyond, they stay unexplained). */
export const MAX_PENDING = 4096;

/** An unexplained read waiting for a later write of its value that does not happen after it. */
interface Pending {
  key: number;
  thread: number;
  /** The reader's epoch C_t(t) at the read: a write with K_w(t) < epoch is not happens-after the read. */
  epoch: number;
  example: ReadExample | undefined;
}

/** Value texts that mean the initial zero / null / false of §4.1 (and `0x00…`, any number of zeros). */
export const DEFAULT_INITIAL_VALUES = ['0', '0.0', '-0', '0n', 'null', 'false', 'undefined'];
/** The key of the initial value (and of every initial-value text). */
const INITIAL_KEY = -2;

export interface AnalysisOptions {
  /** [REMOVE OLDEST]'s bound (default 32). */
  bound?: number;
  /** Examples kept per read class (default 20). */
  maxReports?: number;
  /** Value texts equal to the initial value (default {@link DEFAULT_INITIAL_VALUES}, plus `0x0…`). */
  initialValues?: readonly string[];
}

/** One write as an alternative of a read, in the trace's ids (initial entry: thread -1, index -1). */
export interface WriteRef {
  /** Value id as written (the entry's payload `lo`), -1 when unknown or for the initial entry. */
  value: number;
  thread: number;
  index: number;
  line: number;
  loc: number;
}

/** A read kept as an example of its class. */
export interface ReadExample {
  index: number;
  line: number;
  thread: number;
  variable: number;
  loc: number;
  /** The value id read. */
  value: number;
  /** The write it is taken to have read from (a later one for a future read), or undefined (unexplained). */
  readFrom?: WriteRef;
  newest: WriteRef;
  /** The distinct visible values, oldest first, each with its newest visible write. */
  alternatives: WriteRef[];
}

/** Per-variable counts (and its write buffer). */
export class LocationStats {
  reads = 0;
  /** Reads by class, in {@link READ_CLASSES} order. */
  readonly classes = new Float64Array(READ_CLASSES.length);
  /** Reads with a real choice: two or more distinct visible values. */
  choiceReads = 0;
  /** Largest |D| of a read. */
  maxDistinct = 1;
  constructor(readonly buffer: WriteBuffer) {}
}

/**
 * The offline analysis as a detector of the engine (its race sink is unused): the vector-clock synchronization of
 * {@link VectorClockDetector}, write buffers per variable, a class per read. Set {@link batch} to each batch before
 * the engine processes it (the values are read from it).
 */
export class AdversarialAnalysis extends VectorClockDetector {
  readonly name = 'adversarial';
  /** The batch the engine is processing. */
  batch: EventBatch | undefined;
  readonly bound: number;
  readonly maxReports: number;
  readonly initialValues: readonly string[];
  /** Per variable id, its stats and buffer (created at its first access). */
  readonly locations: (LocationStats | undefined)[] = [];
  /** Examples per class (sc and no-value keep none). */
  readonly examples: ReadExample[][] = READ_CLASSES.map(() => []);
  readonly classCounts = new Float64Array(READ_CLASSES.length);
  private readonly live: LiveSet;
  /** Per variable: its unexplained reads waiting for a future write ({@link pendingCount} in all). */
  private readonly pending = new Map<number, Pending[]>();
  private pendingCount = 0;
  /** Unexplained reads not kept waiting for a future write because {@link MAX_PENDING} were. */
  pendingDropped = 0;
  /** Per value id: 0 not classified yet, 1 an initial-value text, 2 another. */
  private initial: Uint8Array = new Uint8Array(64);
  private vis = new Int32Array(64);
  private dist = new Int32Array(64);

  constructor(ctx: DetectorContext, spans: ThreadSpans, options: AnalysisOptions = {}) {
    super(ctx);
    this.bound = Math.max(1, options.bound ?? DEFAULT_BOUND);
    this.maxReports = options.maxReports ?? 20;
    this.initialValues = options.initialValues ?? DEFAULT_INITIAL_VALUES;
    this.live = new LiveSet(spans, (t) => this.thread(t));
  }

  override fork(t: number, u: number): void {
    super.fork(t, u);
    this.live.forked(u);
  }

  protected access(
    t: number,
    x: number,
    loc: number,
    ev: number,
    write: boolean,
    xact: boolean,
    tag: number,
  ): void {
    const batch = this.batch as EventBatch;
    const i = ev - batch.firstIndex;
    const id = tag === 0 && !xact ? batch.value[i] : -1;
    const s = this.location(x);
    const b = s.buffer;
    const C = this.C;
    if (write) {
      const key = this.key(id);
      b.append(key, t, C.data, t * C.width, C.width, ev, loc, batch.line[i], id);
      if (this.pendingCount > 0) this.resolve(s, x, key, t, ev, loc, batch.line[i], id);
      collect(b, this.live.at(ev, C), this.bound);
      return;
    }
    s.reads++;
    if (this.vis.length < b.length) {
      this.vis = new Int32Array(b.capacity * 2);
      this.dist = new Int32Array(b.capacity * 2);
    }
    const k = visible(b, C.data, t * C.width, C.width, this.vis);
    const d = distinct(b, this.vis, k, this.dist);
    if (d > 1) s.choiceReads++;
    if (d > s.maxDistinct) s.maxDistinct = d;
    let cls: number;
    let from = -1;
    if (id < 0) cls = NO_VALUE;
    else {
      from = this.explain(b, this.key(id), d);
      const newest = b.length - 1;
      cls = from < 0 ? UNEXPLAINED : from !== newest ? STALE : d > 1 ? SC_VIOLATION : SC;
    }
    s.classes[cls]++;
    this.classCounts[cls]++;
    let example: ReadExample | undefined;
    if (cls !== SC && cls !== NO_VALUE && this.examples[cls].length < this.maxReports) {
      example = this.example(b, t, x, loc, ev, id, from, d, batch.line[i]);
      this.examples[cls].push(example);
    }
    if (cls === UNEXPLAINED) this.wait(x, this.key(id), t, C.data[t * C.width + t], example);
  }

  /** Keeps an unexplained read waiting for a future write of its value (or counts it dropped). */
  private wait(x: number, key: number, t: number, epoch: number, example: ReadExample | undefined): void {
    if (this.pendingCount >= MAX_PENDING) {
      this.pendingDropped++;
      return;
    }
    let list = this.pending.get(x);
    if (list === undefined) {
      list = [];
      this.pending.set(x, list);
    }
    list.push({ key, thread: t, epoch, example });
    this.pendingCount++;
  }

  /**
   * A write of `key` to x by thread u: the waiting reads of x of that value which the write does not happen after
   * (K_w(t) < the reader's epoch, JUMBLE.md §4.6.2) become future reads.
   */
  private resolve(
    s: LocationStats,
    x: number,
    key: number,
    u: number,
    ev: number,
    loc: number,
    line: number,
    id: number,
  ): void {
    const list = this.pending.get(x);
    if (list === undefined) return;
    const row = u * this.C.width;
    const data = this.C.data;
    let kept = 0;
    for (const p of list) {
      if (p.key !== key || data[row + p.thread] >= p.epoch) {
        list[kept++] = p;
        continue;
      }
      s.classes[UNEXPLAINED]--;
      s.classes[FUTURE]++;
      this.classCounts[UNEXPLAINED]--;
      this.classCounts[FUTURE]++;
      this.pendingCount--;
      const e = p.example;
      if (e !== undefined) {
        const unexplained = this.examples[UNEXPLAINED];
        unexplained.splice(unexplained.indexOf(e), 1);
        e.readFrom = { value: id, thread: u, index: ev, line, loc };
        if (this.examples[FUTURE].length < this.maxReports) this.examples[FUTURE].push(e);
      }
    }
    list.length = kept;
    if (kept === 0) this.pending.delete(x);
  }

  /**
   * The entry a read of value `key` is taken to have read from: the newest visible entry with that value, else (a
   * value no known visible write has) the newest visible write of unknown value, else -1.
   */
  private explain(b: WriteBuffer, key: number, d: number): number {
    for (let j = d - 1; j >= 0; j--) if (b.value[this.dist[j]] === key) return this.dist[j];
    const torn = this.torn(b, key, d);
    if (torn >= 0) return torn;
    let best = -1;
    for (let j = 0; j < d; j++)
      if (Number.isNaN(b.value[this.dist[j]]) && this.dist[j] > best) best = this.dist[j];
    return best;
  }

  /**
   * For a value `0x` + 16 hex digits (8 bytes, as `goldilocks run --record` writes them) that no visible entry has:
   * the newest visible entry giving its low 4 bytes when another visible entry gives its high 4 bytes — a torn read
   * (the paper's §5.2; ECMA-262 lets Float64, non-atomic BigInt64 and DataView reads tear), which adversarial
   * memory returns (`../heuristics.ts`); else -1. The initial entry's bytes are zeros.
   */
  private torn(b: WriteBuffer, key: number, d: number): number {
    if (key < 0) return -1;
    const text = this.ctx.symbols.values.name(key);
    if (!/^0x[0-9a-f]{16}$/i.test(text)) return -1;
    const half = (i: number, high: boolean): string | undefined => {
      if (b.tid[i] < 0) return '00000000';
      if (Number.isNaN(b.value[i])) return undefined;
      const t = this.ctx.symbols.values.name(b.lo[i]);
      if (!/^0x[0-9a-f]{16}$/i.test(t)) return undefined;
      return (high ? t.slice(10) : t.slice(2, 10)).toLowerCase();
    };
    const low = text.slice(2, 10).toLowerCase();
    const high = text.slice(10).toLowerCase();
    for (let j = d - 1; j >= 0; j--) {
      if (half(this.dist[j], false) !== low) continue;
      for (let k = 0; k < d; k++) if (half(this.dist[k], true) === high) return this.dist[j];
    }
    return -1;
  }

  private example(
    b: WriteBuffer,
    t: number,
    x: number,
    loc: number,
    ev: number,
    value: number,
    from: number,
    d: number,
    line: number,
  ): ReadExample {
    const ref = (i: number): WriteRef => ({
      value: b.lo[i],
      thread: b.tid[i],
      index: b.seq[i],
      line: b.line[i],
      loc: b.site[i],
    });
    const alternatives: WriteRef[] = [];
    for (let j = 0; j < d; j++) alternatives.push(ref(this.dist[j]));
    return {
      index: ev,
      line,
      thread: t,
      variable: x,
      loc,
      value,
      readFrom: from >= 0 ? ref(from) : undefined,
      newest: ref(b.length - 1),
      alternatives,
    };
  }

  /** The buffer key of value id `id`: NaN when there is none, {@link INITIAL_KEY} for an initial-value text. */
  private key(id: number): number {
    if (id < 0) return UNKNOWN_VALUE;
    if (id >= this.initial.length) this.initial = growAtLeast(this.initial, id + 1);
    if (this.initial[id] === 0) {
      const text = this.ctx.symbols.values.name(id);
      this.initial[id] = this.initialValues.includes(text) || /^0x0+$/i.test(text) ? 1 : 2;
    }
    return this.initial[id] === 1 ? INITIAL_KEY : id;
  }

  private location(x: number): LocationStats {
    let s = this.locations[x];
    if (s === undefined) {
      s = new LocationStats(new WriteBuffer(INITIAL_KEY, this.C.width, 2, this.bound + 1));
      this.locations[x] = s;
    }
    return s;
  }

  /** alloc(o): o's variables start again from the initial value (JUMBLE.md §12). */
  protected resetVariable(x: number): void {
    this.locations[x]?.buffer.reset();
    const list = this.pending.get(x);
    if (list !== undefined) {
      this.pendingCount -= list.length;
      this.pending.delete(x);
    }
  }

  stats(): Record<string, number> {
    return {};
  }
}
