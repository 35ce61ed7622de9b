import type { Detector } from '../detectors/detector.js';
import { LockState } from '../detectors/detector.js';
import { TraceError } from '../model/errors.js';
import {
  ACQUIRE,
  ALLOC,
  ATOMIC_DATA_READ,
  ATOMIC_DATA_WRITE,
  ATOMIC_READ,
  ATOMIC_RMW,
  ATOMIC_WRITE,
  COMMIT,
  type EventBatch,
  FORK,
  JOIN,
  NOTIFY,
  READ,
  RELEASE,
  RMW,
  VOLATILE_READ,
  VOLATILE_WRITE,
  WAIT,
  WRITE,
} from '../model/events.js';
import { growAtLeast } from '../model/interner.js';
import type { Symbols } from '../model/symbols.js';
import type { SkipList } from './skip.js';

const UNSEEN = 0;
const FORKED = 1;
const RUNNING = 2;
const JOINED = 3;

export interface EngineOptions {
  /** Input name for error messages. */
  file: string;
  /** Turn infeasible events into counted warnings instead of errors. */
  lenient?: boolean;
  /** Called for each warning in lenient mode. */
  onWarning?: (e: TraceError) => void;
  /** Accesses that need no check (§5.2). */
  skip?: SkipList;
}

/**
 * Drives detectors over batches of events and checks that the trace is feasible: an execution of §3's
 * model could have produced it. Infeasible (TraceError 'infeasible', or a counted warning with `lenient`):
 * an event of a thread before its fork or after its join; forking a thread twice or one that already ran;
 * forking or joining oneself; joining a thread twice or one never forked nor seen; acquiring a lock held by
 * another thread; releasing, waiting on or notifying a lock the thread does not hold. Locks are re-entrant.
 * In lenient mode the event is still passed to the detectors (their verdicts then carry no guarantee).
 */
export class Engine {
  readonly locks = new LockState();
  events = 0;
  warnings = 0;
  /** Reads and writes not checked because of the skip list. */
  skippedAccesses = 0;
  private threadState: Uint8Array = new Uint8Array(16);
  private readonly source: (batch: EventBatch, i: number) => string;

  constructor(
    readonly symbols: Symbols,
    readonly detectors: Detector[],
    private readonly options: EngineOptions,
    /** Renders event i of a batch as text for error messages. */
    source: (batch: EventBatch, i: number) => string,
  ) {
    this.source = source;
  }

  /**
   * Processes every event of the batch. @throws TraceError on an infeasible event (unless lenient).
   *
   * The loop handles reads and writes itself and hands every other event to {@link synchronization}, a method of its
   * own: the loop stays small, so V8 optimizes it early and once — with the rare kinds' cases inline, a kind first
   * seen after the optimization (a join at the end of the trace) sent it back to unoptimized code, where it then ran
   * for most of a 1M-event check (issue 24 §3, counted with callgrind).
   */
  process(batch: EventBatch): void {
    const s = this.symbols;
    this.ensureThreads();
    const { kind, thread, target, loc } = batch;
    const dets = this.detectors;
    const nd = dets.length;
    // the only detector (the common check), called without the loop over detectors around each access (issue 24 §3)
    const one = nd === 1 ? dets[0] : undefined;
    const state = this.threadState;
    const skip = this.options.skip;
    const base = batch.firstIndex;
    // counted first: code after the loop would have no type feedback when V8 compiles the loop on the first batch,
    // and leaving the loop would send it back to unoptimized code (the count is read once the trace is processed)
    this.events += batch.length;
    for (let i = 0; i < batch.length; i++) {
      const k = kind[i];
      const t = thread[i];
      const st = state[t];
      if (st !== RUNNING) {
        if (st === JOINED)
          this.infeasible(batch, i, `an event of thread ${s.threads.name(t)} after it was joined`);
        state[t] = RUNNING;
      }
      if (k === READ) {
        const x = target[i];
        if (skip === undefined || !this.skipped(skip, x, loc[i]))
          if (one !== undefined) one.read(t, x, loc[i], base + i);
          else for (let d = 0; d < nd; d++) dets[d].read(t, x, loc[i], base + i);
      } else if (k === WRITE) {
        const x = target[i];
        if (skip === undefined || !this.skipped(skip, x, loc[i]))
          if (one !== undefined) one.write(t, x, loc[i], base + i);
          else for (let d = 0; d < nd; d++) dets[d].write(t, x, loc[i], base + i);
      } else this.synchronization(batch, i, k, t, target[i], base + i);
    }
  }

  /** Event i of the batch, of kind k (not a read or write), by thread t on x: the detectors' other cases. */
  private synchronization(batch: EventBatch, i: number, k: number, t: number, x: number, ev: number): void {
    const s = this.symbols;
    const dets = this.detectors;
    const nd = dets.length;
    const holder = this.locks.holder;
    const loc = batch.loc;
    switch (k) {
      case ATOMIC_DATA_READ:
      case ATOMIC_DATA_WRITE:
        if (this.options.skip === undefined || !this.skipped(this.options.skip, x, loc[i]))
          for (let d = 0; d < nd; d++)
            dets[d].atomicAccess(t, x, batch.value[i], k === ATOMIC_DATA_WRITE, loc[i], ev);
        break;
      case ACQUIRE:
        this.acquire(batch, i, t, x);
        for (let d = 0; d < nd; d++) dets[d].acquire(t, x, ev);
        break;
      case RELEASE:
        this.release(batch, i, t, x);
        for (let d = 0; d < nd; d++) dets[d].release(t, x, ev);
        break;
      case VOLATILE_READ:
      case ATOMIC_READ: // the same rule: join what the location carries
        for (let d = 0; d < nd; d++) dets[d].volatileRead(t, x, ev);
        break;
      case VOLATILE_WRITE:
        for (let d = 0; d < nd; d++) dets[d].volatileWrite(t, x, ev);
        break;
      case RMW:
        for (let d = 0; d < nd; d++) {
          dets[d].volatileRead(t, x, ev);
          dets[d].volatileWrite(t, x, ev);
        }
        break;
      case ATOMIC_WRITE:
        for (let d = 0; d < nd; d++) dets[d].atomicWrite(t, x, ev);
        break;
      case ATOMIC_RMW:
        for (let d = 0; d < nd; d++) {
          dets[d].volatileRead(t, x, ev);
          dets[d].atomicWrite(t, x, ev);
        }
        break;
      case FORK:
        this.fork(batch, i, t, x);
        for (let d = 0; d < nd; d++) dets[d].fork(t, x, ev);
        break;
      case JOIN:
        this.join(batch, i, t, x);
        for (let d = 0; d < nd; d++) dets[d].join(t, x, ev);
        break;
      case COMMIT:
        for (let d = 0; d < nd; d++) dets[d].commit(t, batch.commitPool, x, loc[i], ev);
        break;
      case ALLOC:
        for (let d = 0; d < nd; d++) dets[d].alloc(t, x, ev);
        break;
      case WAIT:
        if (holder[x] !== t)
          this.infeasible(
            batch,
            i,
            `wait on lock ${s.locks.name(x)} not held by thread ${s.threads.name(t)}`,
          );
        for (let d = 0; d < nd; d++) {
          dets[d].release(t, x, ev);
          dets[d].acquire(t, x, ev);
        }
        break;
      case NOTIFY:
        if (holder[x] !== t)
          this.infeasible(
            batch,
            i,
            `notify on lock ${s.locks.name(x)} not held by thread ${s.threads.name(t)}`,
          );
        break;
      default:
        break; // markers
    }
  }

  /** Whether the skip list (§5.2) leaves out the access of `x` at `loc` (counted). */
  private skipped(skip: SkipList, x: number, loc: number): boolean {
    if (!skip.skips(this.symbols, x, loc)) return false;
    this.skippedAccesses++;
    return true;
  }

  private acquire(batch: EventBatch, i: number, t: number, l: number): void {
    const ls = this.locks;
    const h = ls.holder[l];
    if (h === t) {
      ls.depth[l]++;
      return;
    }
    if (h !== -1) {
      this.infeasible(
        batch,
        i,
        `acquire of lock ${this.symbols.locks.name(l)} by thread ${this.symbols.threads.name(t)} while thread ${this.symbols.threads.name(h)} holds it`,
      );
      this.dropHeld(h, l);
      ls.mutualExclusionBroken = true;
    }
    ls.holder[l] = t;
    ls.depth[l] = 1;
    ls.held[t].push(l);
  }

  private release(batch: EventBatch, i: number, t: number, l: number): void {
    const ls = this.locks;
    const h = ls.holder[l];
    if (h !== t) {
      const by = h === -1 ? 'it is not held' : `thread ${this.symbols.threads.name(h)} holds it`;
      this.infeasible(
        batch,
        i,
        `release of lock ${this.symbols.locks.name(l)} by thread ${this.symbols.threads.name(t)}, but ${by}`,
      );
      return;
    }
    if (--ls.depth[l] === 0) {
      ls.holder[l] = -1;
      this.dropHeld(t, l);
    }
  }

  private dropHeld(t: number, l: number): void {
    const held = this.locks.held[t];
    const j = held.lastIndexOf(l);
    if (j >= 0) held.splice(j, 1);
  }

  private fork(batch: EventBatch, i: number, t: number, u: number): void {
    const s = this.symbols;
    this.ensureThreads();
    if (u === t) this.infeasible(batch, i, `thread ${s.threads.name(t)} forks itself`);
    else if (this.threadState[u] !== UNSEEN) {
      const why = ['', 'was already forked', 'already has events before this fork', 'was already joined'][
        this.threadState[u]
      ];
      this.infeasible(batch, i, `fork of thread ${s.threads.name(u)}, which ${why}`);
    }
    if (this.threadState[u] === UNSEEN) this.threadState[u] = FORKED;
  }

  private join(batch: EventBatch, i: number, t: number, u: number): void {
    const s = this.symbols;
    this.ensureThreads();
    const st = this.threadState[u];
    if (u === t) this.infeasible(batch, i, `thread ${s.threads.name(t)} joins itself`);
    else if (st === JOINED)
      this.infeasible(batch, i, `join of thread ${s.threads.name(u)}, which was already joined`);
    else if (st === UNSEEN)
      this.infeasible(
        batch,
        i,
        `join of thread ${s.threads.name(u)}, which was never forked and has no events`,
      );
    if (u !== t) this.threadState[u] = JOINED;
  }

  private ensureThreads(): void {
    const n = this.symbols.threads.size;
    if (this.threadState.length < n) this.threadState = growAtLeast(this.threadState, n);
    this.locks.ensure(this.symbols.locks.size, n);
  }

  private infeasible(batch: EventBatch, i: number, what: string): void {
    const e = new TraceError(
      this.options.file,
      batch.line[i],
      1,
      this.source(batch, i),
      `${what} (event ${batch.firstIndex + i})`,
      'infeasible',
    );
    if (!this.options.lenient) throw e;
    this.warnings++;
    this.options.onWarning?.(e);
  }
}
