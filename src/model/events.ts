/**
 * The event model of §3 of Elmas, Qadeer, Tasiran, "Goldilocks", PLDI'07 (../shared/seeds/000_*.txt), plus
 * the markers trace formats carry.
 *
 * Event kinds are small integers (so an event batch is a struct of typed arrays). The `target` of an event
 * depends on its kind: a variable id (READ, WRITE), a lock id (ACQUIRE, RELEASE, WAIT, NOTIFY), a volatile
 * id (VOLATILE_READ, VOLATILE_WRITE, RMW, and ATOMIC_READ/WRITE/RMW: the same namespace), a variable id with the
 * atomic location's volatile id in `value` (ATOMIC_DATA_READ, ATOMIC_DATA_WRITE), a thread id (FORK, JOIN), an object id (ALLOC), an offset into
 * the batch's commit-set pool (COMMIT), or a marker-name id (ENTER, EXIT, BEGIN, END, DUMMY).
 */

/** read(o, d): a data read. */
export const READ = 0;
/** write(o, d): a data write. */
export const WRITE = 1;
/** acq(o): lock acquire. */
export const ACQUIRE = 2;
/** rel(o): lock release. */
export const RELEASE = 3;
/** read(o, v): volatile read. */
export const VOLATILE_READ = 4;
/** write(o, v): volatile write. */
export const VOLATILE_WRITE = 5;
/** An atomic read-modify-write of a volatile: a volatile read then a volatile write, as one event. */
export const RMW = 6;
/** fork(u). */
export const FORK = 7;
/** join(u). */
export const JOIN = 8;
/** commit(R, W): a transaction commit (§3, §5.3). */
export const COMMIT = 9;
/** alloc(o): allocation of object o; resets the locksets of its fields (Figure 5, rule 8). */
export const ALLOC = 10;
/** wait(l): the monitor l is released and re-acquired (happens-before of rel(l); acq(l)). */
export const WAIT = 11;
/** notify(l): no happens-before edge of its own (the notifier's later rel(l) carries it); requires holding l. */
export const NOTIFY = 12;
/** Method entry marker (kept for reports, ignored by detection). */
export const ENTER = 13;
/** Method exit marker. */
export const EXIT = 14;
/** RAPID's `begin` marker (atomic-block start; ignored by race detection, as RAPID's race engines do). */
export const BEGIN = 15;
/** RAPID's `end` marker. */
export const END = 16;
/** RAPID's `dummy` event (ignored). */
export const DUMMY = 17;
/**
 * ECMA-262 atomic (seq-cst) read of a location: synchronizes-with the atomic write it reads from, which in a
 * trace is the last atomic write of the same location (ECMA-262 "Memory Model", synchronizes-with). Same
 * rule as a volatile read: it joins what the location carries.
 */
export const ATOMIC_READ = 18;
/**
 * ECMA-262 atomic write: unlike a Java volatile write, which adds its happens-before to every later read,
 * it *replaces* what the location carries — a later atomic read synchronizes only with the write it reads
 * from, the last one. Shares the volatile namespace: `vw` joins, `aw` replaces.
 */
export const ATOMIC_WRITE = 19;
/** ECMA-262 atomic read-modify-write (Atomics.add, exchange, a successful compareExchange...): ar then aw. */
export const ATOMIC_RMW = 20;
/**
 * ard(x, v): the data read of variable x by an ECMA-262 atomic (seq-cst) operation on location v. It is checked
 * like a read, except against an atomic access of x with the same location v: two seq-cst events of equal
 * ranges never form a data race (ECMA-262 "Memory Model", data races). `v` names the byte range (mixed-size
 * atomic accesses of one byte have different locations, and race). Synchronization is the separate ar/aw/armw(v).
 */
export const ATOMIC_DATA_READ = 21;
/** awd(x, v): the data write of variable x by an atomic operation on location v (store, read-modify-write). */
export const ATOMIC_DATA_WRITE = 22;

export const KIND_COUNT = 23;

/** The extended-format keyword of each kind (also the name used in reports). */
export const KIND_NAMES: readonly string[] = [
  'r',
  'w',
  'acq',
  'rel',
  'vr',
  'vw',
  'rmw',
  'fork',
  'join',
  'commit',
  'alloc',
  'wait',
  'notify',
  'enter',
  'exit',
  'begin',
  'end',
  'dummy',
  'ar',
  'aw',
  'armw',
  'ard',
  'awd',
];

/** Whether a kind is a marker (no effect on detection). */
export function isMarker(kind: number): boolean {
  return kind >= ENTER && kind <= DUMMY;
}

/**
 * A batch of consecutive events of one trace, as a struct of typed arrays. Parsers fill a batch, the engine
 * consumes it, then it is reused: memory does not grow with trace length.
 */
export class EventBatch {
  /** Number of events in the batch. */
  length = 0;
  /** 0-based index in the trace of the batch's first event. */
  firstIndex = 0;
  readonly kind: Uint8Array;
  readonly thread: Int32Array;
  readonly target: Int32Array;
  /** Source-location id (the `locations` table); the empty location is id 0. */
  readonly loc: Int32Array;
  /**
   * Value id (the `values` table) for `r(x)=v` / `w(x)=v`, or -1; for `ard(x,v)` / `awd(x,v)` the volatile id
   * of the atomic location v (the event's second operand).
   */
  readonly value: Int32Array;
  /** 1-based line number in the input of each event (for error messages). */
  readonly line: Float64Array;
  /**
   * Commit sets: at `target` of a COMMIT event, `[nReads, nWrites, read ids..., write ids...]` (variable ids).
   */
  commitPool: Int32Array = new Int32Array(256);
  commitPoolLength = 0;

  /**
   * @param storage the arrays' memory, of {@link EventBatch.BYTES_PER_EVENT} bytes per event of `capacity`:
   *   `line`, then `thread`, `target`, `loc`, `value`, then `kind` (a fresh buffer by default).
   */
  constructor(
    readonly capacity = 1 << 15,
    readonly storage: ArrayBuffer = new ArrayBuffer(capacity * EventBatch.BYTES_PER_EVENT),
  ) {
    this.line = new Float64Array(storage, 0, capacity);
    this.thread = new Int32Array(storage, 8 * capacity, capacity);
    this.target = new Int32Array(storage, 12 * capacity, capacity);
    this.loc = new Int32Array(storage, 16 * capacity, capacity);
    this.value = new Int32Array(storage, 20 * capacity, capacity);
    this.kind = new Uint8Array(storage, 24 * capacity, capacity);
  }

  /** Bytes of `storage` per event: line (8), thread, target, loc, value (4 each), kind (1). */
  static readonly BYTES_PER_EVENT = 25;

  /** Empties the batch; the next event gets trace index `firstIndex`. */
  reset(firstIndex: number): void {
    this.length = 0;
    this.firstIndex = firstIndex;
    this.commitPoolLength = 0;
  }

  /** Appends an event. @returns its position in the batch. */
  push(kind: number, thread: number, target: number, loc: number, value: number, line: number): number {
    const i = this.length++;
    this.kind[i] = kind;
    this.thread[i] = thread;
    this.target[i] = target;
    this.loc[i] = loc;
    this.value[i] = value;
    this.line[i] = line;
    return i;
  }

  /** Appends a commit(R, W) event whose sets are given as variable ids. */
  pushCommit(
    thread: number,
    reads: ArrayLike<number>,
    writes: ArrayLike<number>,
    loc: number,
    line: number,
  ): number {
    const need = this.commitPoolLength + 2 + reads.length + writes.length;
    if (need > this.commitPool.length) {
      let cap = Math.max(this.commitPool.length * 2, 256);
      while (cap < need) cap *= 2;
      const p = new Int32Array(cap);
      p.set(this.commitPool.subarray(0, this.commitPoolLength));
      this.commitPool = p;
    }
    const off = this.commitPoolLength;
    const pool = this.commitPool;
    pool[off] = reads.length;
    pool[off + 1] = writes.length;
    let j = off + 2;
    for (let k = 0; k < reads.length; k++) pool[j++] = reads[k];
    for (let k = 0; k < writes.length; k++) pool[j++] = writes[k];
    this.commitPoolLength = j;
    return this.push(COMMIT, thread, off, loc, -1, line);
  }
}
