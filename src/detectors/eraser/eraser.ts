import type { AccessRef, Detector, DetectorContext } from '../detector.js';
import { CONFLICT, next, startsLockset, VIRGIN } from './states.js';

/** Object states. */
const OBJ_NEW = 0;
const OBJ_OWNED = 1;
const OBJ_ESCAPED = 2;

/*
 * Field / element states: Savage's (`./states.ts`); VIRGIN: not started yet (the object or sub-block was the
 * Exclusive owner's until the access that starts it).
 */

/** Sub-block state in a block map: a thread id (BLOCK_OWNED by it), or BLOCK_SHARED; absent = BLOCK_FREE. */
const BLOCK_SHARED = -1;

/** The fictitious transaction lock "TL" (Goldilocks §4), as a lock id inside candidate locksets. */
const TL = -1;
/** The pseudo-lock of atomic location v (held by its atomic operations' data accesses) is lock id ATOMIC_LOCK - v. */
const ATOMIC_LOCK = -2;
/** Interned id of the empty lockset. */
const EMPTY = 0;

/** Flags of a remembered access. */
const F_WRITE = 1;
const F_XACT = 2;
const F_ATOMIC = 4;

export interface EraserOptions {
  /** Number of array elements per sub-block (Nishiyama §3.2); default 8. */
  blockSize?: number;
}

/**
 * The Eraser lockset algorithm (Savage, Burrows, Nelson, Sobalvarro, Anderson, "Eraser: A Dynamic Data Race
 * Detector for Multithreaded Programs", TOCS 1997) with the object/array-sub-block state model of Nishiyama,
 * "Detecting Data Races using Dynamic Escape Analysis based on Read Barrier", VM'04, §3.3
 * (../shared/seeds/001_*.txt). It is the imprecise peer of Goldilocks: it only knows locks.
 *
 * - Object: OWNED by its creator (the thread of `alloc(o)`, else the first thread to access one of its
 *   variables) until another thread accesses one of its variables: then ESCAPED. `alloc(o)` restarts o as
 *   OWNED by the allocating thread and resets the state of all of o's variables (and sub-blocks).
 *   Accesses to an OWNED object are not checked and do not start field states.
 * - Field (array index < 0) of an ESCAPED object, from its first access after escape (the escaping access
 *   included): Savage's per-location transition (`./states.ts`): a read starts SHARED, a write SHARED_MODIFIED,
 *   with C(x) = locks held. Each later access does C(x) := C(x) ∩ locksHeld(t), and a write moves SHARED to
 *   SHARED_MODIFIED. SHARED_MODIFIED with C(x) empty becomes CONFLICT, reported once; later accesses in CONFLICT
 *   are not reported.
 * - Array element (index ≥ 0) of an ESCAPED object: sub-block floor(index / blockSize) is BLOCK_FREE at
 *   escape; its first access makes it BLOCK_OWNED by the accessor, whose accesses are then unchecked; an
 *   access by another thread makes it SHARED, and each of its elements is then checked as a field from its
 *   next access (the triggering access starts that element's state).
 * - locksHeld(t) is the engine's `locks.held[t]`. Volatile accesses, fork and join carry no synchronization
 *   (Eraser's known imprecision: a fork/join hand-off is reported). `commit(R, W)` checks R as reads and W as
 *   writes by t holding the extra lock "TL" (the transaction lock of Goldilocks §4). The data access of an atomic
 *   operation on location v (ard/awd) holds a pseudo-lock of v, as the live Eraser does (docs/RUNTIME.md): two
 *   atomic accesses of one location never warn; an atomic and a plain one, or two of different locations, do.
 *
 * A report's `previous` is the last access to x by a thread other than the current one if known, else the
 * last access to x, else (a conflict at x's very first access, e.g. an unlocked write to a field of an
 * already escaped object) the current access itself. Its `lockset` is the names of the locks held at the
 * current access (plus "TL" in a commit).
 *
 * Candidate locksets are hash-consed (sorted lock ids → lockset id), so per-variable state is one Int32;
 * intersections are cached by pair of lockset ids.
 */
export class EraserDetector implements Detector {
  readonly name = 'eraser';
  private readonly blockSize: number;

  // Per object.
  private objState: Uint8Array = new Uint8Array(256);
  private objOwner: Int32Array = new Int32Array(256);
  /** Sub-block states of escaped arrays, per object (created on first element access after escape). */
  private readonly blocks: (Map<number, number> | undefined)[] = [];

  // Per variable.
  private varState: Uint8Array = new Uint8Array(1024);
  private varLockset: Int32Array = new Int32Array(1024);
  /** Last access to x: thread (-1 none), event index, location, flags. */
  private lastThread: Int32Array = new Int32Array(1024).fill(-1);
  private lastEv: Float64Array = new Float64Array(1024);
  private lastLoc: Int32Array = new Int32Array(1024);
  private lastFlags: Uint8Array = new Uint8Array(1024);
  /** Last access to x by a thread other than its last accessor (-1 none). */
  private otherThread: Int32Array = new Int32Array(1024).fill(-1);
  private otherEv: Float64Array = new Float64Array(1024);
  private otherLoc: Int32Array = new Int32Array(1024);
  private otherFlags: Uint8Array = new Uint8Array(1024);

  // Locksets.
  private readonly locksetIds = new Map<string, number>();
  private readonly locksets: number[][] = [];
  private readonly intersections = new Map<number, number>();
  /** Per lockset id: the id of it plus a pseudo-lock (TL, or an atomic location's), by pseudo-lock id. */
  private readonly plusPseudo = new Map<number, Map<number, number>>();
  /** Per thread: the `locks.held[t]` last seen, and its lockset id. */
  private readonly heldSeen: (number[] | undefined)[] = [];
  private readonly heldId: number[] = [];

  private objectsEscaped = 0;
  private blocksShared = 0;
  private checks = 0;
  private conflicts = 0;

  constructor(
    private readonly ctx: DetectorContext,
    options: EraserOptions = {},
  ) {
    const b = options.blockSize ?? 8;
    if (!Number.isInteger(b) || b < 1)
      throw new RangeError(`eraser: blockSize must be a positive integer, got ${b}`);
    this.blockSize = b;
    this.intern([]); // EMPTY = 0
  }

  read(t: number, x: number, loc: number, ev: number): void {
    this.access(t, x, false, 0, loc, ev);
  }

  write(t: number, x: number, loc: number, ev: number): void {
    this.access(t, x, true, 0, loc, ev);
  }

  atomicAccess(t: number, x: number, v: number, write: boolean, loc: number, ev: number): void {
    this.access(t, x, write, ATOMIC_LOCK - v, loc, ev);
  }

  acquire(_t: number, _l: number, _ev: number): void {}
  release(_t: number, _l: number, _ev: number): void {}
  volatileRead(_t: number, _v: number, _ev: number): void {}
  volatileWrite(_t: number, _v: number, _ev: number): void {}
  atomicWrite(_t: number, _v: number, _ev: number): void {}
  fork(_t: number, _u: number, _ev: number): void {}
  join(_t: number, _u: number, _ev: number): void {}

  commit(t: number, pool: Int32Array, off: number, loc: number, ev: number): void {
    const nr = pool[off];
    const nw = pool[off + 1];
    let j = off + 2;
    for (let k = 0; k < nr; k++) this.access(t, pool[j++], false, TL, loc, ev);
    for (let k = 0; k < nw; k++) this.access(t, pool[j++], true, TL, loc, ev);
  }

  alloc(t: number, o: number, _ev: number): void {
    if (o >= this.objState.length) this.growObjects(o + 1);
    this.objState[o] = OBJ_OWNED;
    this.objOwner[o] = t;
    this.blocks[o] = undefined;
    const s = this.ctx.symbols;
    for (let x = s.firstVariableOf(o); x !== -1; x = s.variableNextInObject[x]) {
      if (x >= this.varState.length) continue; // never accessed
      this.varState[x] = VIRGIN;
      this.varLockset[x] = EMPTY;
      this.lastThread[x] = -1;
      this.otherThread[x] = -1;
    }
  }

  stats(): Record<string, number> {
    return {
      objectsEscaped: this.objectsEscaped,
      blocksShared: this.blocksShared,
      checks: this.checks,
      conflicts: this.conflicts,
      locksets: this.locksets.length,
    };
  }

  /** `pseudo`: the pseudo-lock held by the access — TL in a commit, an atomic location's, or 0 for none. */
  private access(t: number, x: number, write: boolean, pseudo: number, loc: number, ev: number): void {
    if (x >= this.varState.length) this.growVariables(x + 1);
    const s = this.ctx.symbols;
    const o = s.objectOf(x);
    if (o >= this.objState.length) this.growObjects(o + 1);
    const os = this.objState[o];
    if (os === OBJ_NEW) {
      this.objState[o] = OBJ_OWNED;
      this.objOwner[o] = t;
    } else if (os === OBJ_OWNED && this.objOwner[o] !== t) {
      this.objState[o] = OBJ_ESCAPED;
      this.objectsEscaped++;
    }
    if (this.objState[o] === OBJ_ESCAPED) {
      const index = s.variableArrayIndex[x];
      if (index < 0 || this.blockIsShared(o, Math.floor(index / this.blockSize), t)) {
        this.check(t, x, write, pseudo, loc, ev);
      }
    }
    this.remember(t, x, write, pseudo, loc, ev);
  }

  /** Moves sub-block b of escaped array o by an access of t. @returns whether the block is SHARED. */
  private blockIsShared(o: number, b: number, t: number): boolean {
    let m = this.blocks[o];
    if (m === undefined) {
      m = new Map();
      this.blocks[o] = m;
    }
    const st = m.get(b);
    if (st === undefined) {
      m.set(b, t); // BLOCK_FREE → BLOCK_OWNED by t
      return false;
    }
    if (st === BLOCK_SHARED) return true;
    if (st === t) return false;
    m.set(b, BLOCK_SHARED);
    this.blocksShared++;
    return true;
  }

  /** The lockset step for a field or shared-block element. */
  private check(t: number, x: number, write: boolean, pseudo: number, loc: number, ev: number): void {
    let st = this.varState[x];
    if (st === CONFLICT) return;
    this.checks++;
    let held = this.heldLockset(t);
    if (pseudo !== 0) held = this.withPseudo(held, pseudo);
    const ls = startsLockset(st) ? held : this.intersect(this.varLockset[x], held);
    this.varLockset[x] = ls;
    st = next(st, write, ls === EMPTY);
    if (st === CONFLICT) {
      this.conflicts++;
      this.report(t, x, write, pseudo, loc, ev);
    }
    this.varState[x] = st;
  }

  private report(t: number, x: number, write: boolean, pseudo: number, loc: number, ev: number): void {
    const current = { index: ev, thread: t, write, ...pseudoFlags(pseudo), loc };
    let previous = current;
    const lt = this.lastThread[x];
    if (lt !== -1 && lt !== t) previous = this.lastAccess(x);
    else if (this.otherThread[x] !== -1) previous = this.otherAccess(x);
    else if (lt !== -1) previous = this.lastAccess(x);
    const names = this.ctx.locks.held[t]?.map((l) => this.ctx.symbols.locks.name(l)) ?? [];
    if (pseudo === TL) names.push('TL');
    else if (pseudo !== 0) names.push(`atomic ${this.ctx.symbols.volatiles.name(ATOMIC_LOCK - pseudo)}`);
    this.ctx.sink.race({
      variable: x,
      current,
      previous,
      detail: 'Eraser: candidate lockset C(x) became empty in shared-modified state',
      lockset: names,
    });
  }

  private lastAccess(x: number): AccessRef {
    return accessRef(this.lastEv[x], this.lastThread[x], this.lastFlags[x], this.lastLoc[x]);
  }

  private otherAccess(x: number): AccessRef {
    return accessRef(this.otherEv[x], this.otherThread[x], this.otherFlags[x], this.otherLoc[x]);
  }

  /** Records the access as x's last; the previous last moves to "other" when its thread differs. */
  private remember(t: number, x: number, write: boolean, pseudo: number, loc: number, ev: number): void {
    const lt = this.lastThread[x];
    if (lt !== -1 && lt !== t) {
      this.otherThread[x] = lt;
      this.otherEv[x] = this.lastEv[x];
      this.otherLoc[x] = this.lastLoc[x];
      this.otherFlags[x] = this.lastFlags[x];
    }
    this.lastThread[x] = t;
    this.lastEv[x] = ev;
    this.lastLoc[x] = loc;
    this.lastFlags[x] = (write ? F_WRITE : 0) | (pseudo === TL ? F_XACT : pseudo !== 0 ? F_ATOMIC : 0);
  }

  /** The lockset id of the locks t holds (recomputed only when `locks.held[t]` changed). */
  private heldLockset(t: number): number {
    const held = this.ctx.locks.held[t];
    if (held === undefined || held.length === 0) return EMPTY;
    const seen = this.heldSeen[t];
    if (seen !== undefined && seen.length === held.length) {
      let same = true;
      for (let i = 0; i < held.length; i++) {
        if (seen[i] !== held[i]) {
          same = false;
          break;
        }
      }
      if (same) return this.heldId[t];
    }
    const copy = held.slice();
    this.heldSeen[t] = copy;
    const id = this.intern(copy.slice().sort((a, b) => a - b));
    this.heldId[t] = id;
    return id;
  }

  /** The id of lockset `a` plus pseudo-lock `p` (negative: sorts first). */
  private withPseudo(a: number, p: number): number {
    let m = this.plusPseudo.get(a);
    if (m === undefined) {
      m = new Map();
      this.plusPseudo.set(a, m);
    }
    let id = m.get(p);
    if (id === undefined) {
      id = this.intern([p, ...this.locksets[a]]);
      m.set(p, id);
    }
    return id;
  }

  private intersect(a: number, b: number): number {
    if (a === b || a === EMPTY) return a;
    if (b === EMPTY) return EMPTY;
    const key = a < b ? a * 0x4000000 + b : b * 0x4000000 + a; // exact while lockset ids < 2^26
    let id = this.intersections.get(key);
    if (id === undefined) {
      const p = this.locksets[a];
      const q = this.locksets[b];
      const r: number[] = [];
      let i = 0;
      let j = 0;
      while (i < p.length && j < q.length) {
        if (p[i] === q[j]) {
          r.push(p[i]);
          i++;
          j++;
        } else if (p[i] < q[j]) i++;
        else j++;
      }
      id = this.intern(r);
      this.intersections.set(key, id);
    }
    return id;
  }

  /** Hash-conses a sorted array of lock ids. */
  private intern(sorted: number[]): number {
    const key = sorted.join(',');
    let id = this.locksetIds.get(key);
    if (id === undefined) {
      id = this.locksets.length;
      this.locksets.push(sorted);
      this.locksetIds.set(key, id);
    }
    return id;
  }

  private growObjects(n: number): void {
    const cap = Math.max(n, this.objState.length * 2);
    const s = new Uint8Array(cap);
    s.set(this.objState);
    this.objState = s;
    const o = new Int32Array(cap);
    o.set(this.objOwner);
    this.objOwner = o;
  }

  private growVariables(n: number): void {
    const cap = Math.max(n, this.varState.length * 2);
    this.varState = grow(this.varState, new Uint8Array(cap));
    this.varLockset = grow(this.varLockset, new Int32Array(cap));
    this.lastThread = grow(this.lastThread, new Int32Array(cap).fill(-1));
    this.lastEv = grow(this.lastEv, new Float64Array(cap));
    this.lastLoc = grow(this.lastLoc, new Int32Array(cap));
    this.lastFlags = grow(this.lastFlags, new Uint8Array(cap));
    this.otherThread = grow(this.otherThread, new Int32Array(cap).fill(-1));
    this.otherEv = grow(this.otherEv, new Float64Array(cap));
    this.otherLoc = grow(this.otherLoc, new Int32Array(cap));
    this.otherFlags = grow(this.otherFlags, new Uint8Array(cap));
  }
}

/** The `xact` and `atomic` fields of an access holding pseudo-lock `pseudo` (see `access`). */
function pseudoFlags(pseudo: number): { xact: boolean; atomic: boolean } {
  return { xact: pseudo === TL, atomic: pseudo !== 0 && pseudo !== TL };
}

function accessRef(index: number, thread: number, flags: number, loc: number): AccessRef {
  return {
    index,
    thread,
    write: (flags & F_WRITE) !== 0,
    xact: (flags & F_XACT) !== 0,
    atomic: (flags & F_ATOMIC) !== 0,
    loc,
  };
}

function grow<T extends Uint8Array | Int32Array | Float64Array>(old: T, fresh: T): T {
  fresh.set(old);
  return fresh;
}
