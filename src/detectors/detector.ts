import { grow, growFilled } from '../model/interner.js';
import type { Symbols } from '../model/symbols.js';

/**
 * One access of a race as a detector declares it, in the trace's ids (`thread`, `loc`: ../model/symbols.ts). `index`
 * is the 0-based position of the event among the trace's events.
 */
export interface AccessRef {
  index: number;
  thread: number;
  write: boolean;
  /** Inside a transaction (checked at its commit, §5.3). */
  xact: boolean;
  /** The data access of an ECMA-262 atomic operation (ard/awd). */
  atomic: boolean;
  loc: number;
}

/**
 * A race declared by a detector at `current` (the later access) against `previous`, in the trace's ids: the
 * detectors' cheap interned form, which ../report/race.ts `raceOf` names into the `RaceRecord` both front ends report.
 */
export interface Race {
  variable: number;
  current: AccessRef;
  previous: AccessRef;
  /** How the detector decided, in its own terms (e.g. which lockset, which epochs). */
  detail: string;
  /** Goldilocks: the lockset computed for the previous access at the current one; Eraser: the locks held. */
  lockset?: string[];
}

export interface RaceSink {
  race(r: Race): void;
}

/**
 * The locks each thread holds, maintained by the engine as it checks feasibility (engine/engine.ts) and read
 * by detectors (the alock short-circuit of §5.1, Eraser's locks-held). Locks are re-entrant: `depth` counts.
 */
export class LockState {
  /** Holding thread per lock, -1 when free. */
  holder: Int32Array = new Int32Array(0);
  depth: Int32Array = new Int32Array(0);
  /** Locks held per thread, in acquisition order (outermost first). */
  readonly held: number[][] = [];
  /**
   * Set once a lock was acquired while another thread held it (accepted with `--lenient`): mutual exclusion no
   * longer holds, so reasoning that relies on it (Goldilocks' alock short-circuit, §5.1) must not be used.
   */
  mutualExclusionBroken = false;

  /**
   * `holder` and `depth` allocated as they grow (for 64 locks at first), so that each field is written twice before
   * any code runs (V8 then compiles no code that relies on its first value: docs/ARCHITECTURE.md, "Tables that grow").
   */
  constructor() {
    this.ensure(64, 0);
  }

  /** Grows the tables (at least doubling) to hold `locks` locks and `threads` threads. */
  ensure(locks: number, threads: number): void {
    if (locks > this.holder.length) {
      const cap = Math.max(locks, this.holder.length * 2);
      this.holder = growFilled(this.holder, cap, -1);
      this.depth = grow(this.depth, cap);
    }
    while (this.held.length < threads) this.held.push([]);
  }
}

/** What a detector is given: the trace's symbol tables and the engine's lock state. */
export interface DetectorContext {
  symbols: Symbols;
  locks: LockState;
  sink: RaceSink;
}

/**
 * A race detector: a class of event handlers over interned ids, in the style of RoadRunner's tools
 * (DESIGN.md). `ev` is the event's 0-based index in the trace, `loc` its source-location id.
 * The engine has already checked feasibility and expands compound events: rmw(v) = vr(v); vw(v),
 * armw(v) = ar(v); aw(v), and wait(l) = rel(l); acq(l); an atomic read ar(v) is passed as `volatileRead` (same
 * rule). Markers and notify are not passed on.
 */
export interface Detector {
  readonly name: string;
  read(t: number, x: number, loc: number, ev: number): void;
  write(t: number, x: number, loc: number, ev: number): void;
  /**
   * ard(x, v) (`write` false) / awd(x, v): the data access of x by an ECMA-262 atomic operation on location v.
   * Checked and recorded like a read / write, except that it is never checked against an atomic access of x with
   * the same location v (ECMA-262 "Memory Model": two seq-cst events of equal ranges are not a data race). An
   * atomic write replaces x's earlier accesses like any write, so a later access is checked against it only.
   */
  atomicAccess(t: number, x: number, v: number, write: boolean, loc: number, ev: number): void;
  acquire(t: number, l: number, ev: number): void;
  release(t: number, l: number, ev: number): void;
  volatileRead(t: number, v: number, ev: number): void;
  volatileWrite(t: number, v: number, ev: number): void;
  /**
   * ECMA-262 atomic write aw(v): v then carries the happens-before of this write only (replacing, where a
   * volatile write adds). Lockset rule: if t ∈ LS then v ∈ LS, else v ∉ LS. Vector clocks: V_v := C_t.
   */
  atomicWrite(t: number, v: number, ev: number): void;
  fork(t: number, u: number, ev: number): void;
  join(t: number, u: number, ev: number): void;
  /** commit(R, W): `pool[off]` = |R|, `pool[off+1]` = |W|, then the ids of R, then of W. */
  commit(t: number, pool: Int32Array, off: number, loc: number, ev: number): void;
  alloc(t: number, o: number, ev: number): void;
  /** Counters for `--stats`. */
  stats(): Record<string, number>;
}
