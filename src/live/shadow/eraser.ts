/**
 * Eraser online (`goldilocks run --detector eraser`): the lockset peer of the live runtime (Savage, Burrows, Nelson,
 * Sobalvarro, Anderson, "Eraser: A Dynamic Data Race Detector for Multithreaded Programs", TOCS 1997 §2; the state
 * model of Nishiyama, VM'04 §3.3, `../shared/seeds/001_*.txt`, without its object/array-block levels: shared memory
 * has no objects; the offline one is `src/detectors/eraser/eraser.ts`). It is *imprecise*: its warnings are
 * potential races.
 *
 * **Locks held** by a thread are the sync-library locks it holds (`Shadow.held`, reported by `goldilocks/sync`), plus,
 * during an `Atomics` operation, a pseudo-lock of the operation's exact byte range (as the offline Eraser adds the
 * transaction lock "TL" in a commit): two atomic accesses of one range never warn, an atomic and a plain access, or
 * two atomic accesses of overlapping unequal ranges (mixed-size), do. A transaction's accesses, checked at its
 * commit with `XACT` (`../stm-observer.ts`), hold the pseudo-lock "TL" (the transaction lock of Goldilocks PLDI'07
 * §4, as the offline Eraser's `commit`): two transactional accesses never warn, a transactional and a plain one
 * do unless they hold a common lock. Commits order nothing else for Eraser. Nothing else synchronizes for Eraser: not
 * `Atomics` hand-offs, messages, fork, join, wait/notify or sync-library volatiles (barriers, conditions' signals).
 * So it warns on correct programs that synchronize that way (false alarms), and misses what its states hide: a
 * location written by one thread and only read by others after it (Exclusive → Shared never warns).
 *
 * **States** per byte (Savage §2.2; the transition is `src/detectors/eraser/states.ts`, shared with the offline
 * Eraser): Virgin (no record) → Exclusive(owner) at the first access; an access by another thread moves it to Shared (a read) or SharedModified (a write) with candidate lockset C := locks held;
 * then every access does C := C ∩ locks held, and a write moves Shared to SharedModified. A SharedModified byte
 * whose C is empty is a warning; the byte then goes to Conflict, where it is not reported again (the offline
 * Eraser's rule). With `--on-race=throw` the warning throws `DataRaceException` before the access, which is then not
 * recorded (its bytes keep their state, so a retry warns again), like Goldilocks.
 *
 * **Layout.** The word's check lock and list head are Goldilocks' (`./goldilocks.ts`); the list holds Eraser records in
 * the `Info` layout (8 Int32), one per set of the word's bytes in one state: `next`, `flags` (byte mask | WRITE |
 * ATOMIC | XACT of the last access | the same three bits of the last other-thread access, << 3 | state << 14), `owner` (the
 * last accessor: the owner in Exclusive), `pos` = the candidate lockset's id, `site` of the last access, the last
 * access by another thread (thread + 1, 0 = none) and its site (the report's previous access). An access to part of
 * a record's bytes splits it. Candidate locksets are hash-consed in the shadow heap (sorted (a, b) key pairs → the
 * index of their record, the id; 0 = the empty set) under `CTL.peerLock`; intersections are cached per thread.
 *
 * **A worker terminated mid-update** is survived by the lock takeover of `../memory/state.ts`: records and lockset records
 * are filled before one store links them; a record updated in place may mix its old and new fields (readable).
 */

import * as states from '../../detectors/eraser/states.js';
import { SyncKind } from '../../model/sync.js';
import {
  allocHeap,
  CTL,
  lock,
  peerTables,
  rawAtomics,
  STAT,
  type StateViews,
  unlock,
} from '../memory/state.js';
import { Access, type Conflict, Info, objectKey, Shadow } from './goldilocks.js';
import { headOf } from './table.js';

const LOCKSET = Info.POS;
const OTHER = 5;
const OTHER_SITE = 6;
/** The last other-thread access's WRITE | ATOMIC | XACT bits, shifted. */
const OTHER_SHIFT = 3;
const ACCESS_BITS = Access.WRITE | Access.ATOMIC | Access.XACT;
/** A record's state (`src/detectors/eraser/states.ts`), in bits 14-16 of its flags. */
const STATE_SHIFT = 14;
const EXCLUSIVE = states.EXCLUSIVE << STATE_SHIFT;
const CONFLICT = states.CONFLICT << STATE_SHIFT;
const STATE = 7 << STATE_SHIFT;

/** The empty lockset's id. */
const EMPTY = 0;
/** Chain heads of the lockset table. */
const BUCKETS = 1 << 12;
/** Lockset record fields: next, hash, number of locks, then (a, b) per lock. */
const L_NEXT = 0;
const L_HASH = 1;
const L_SIZE = 2;
const L_KEYS = 3;
/** The `a` word of an atomic range's pseudo-lock (with the byte mask; `b` = the word): above every cell tag. */
const ATOMIC_LOCK = 1 << 30;
/** The (a, b) words of the transaction pseudo-lock "TL" (no atomic range has a mask bit 8). */
const TL_A = ATOMIC_LOCK | 0x100;
const TL_B = 0;

function hashKeys(keys: number[]): number {
  let h = 0x811c9dc5;
  for (const k of keys) h = Math.imul(h ^ k, 0x01000193);
  return h;
}

/** Per-thread Eraser checker (see the file header). */
export class EraserShadow extends Shadow {
  /** Heap index of the lockset table. */
  private readonly tables: number;
  /** Id of the lockset {@link held}, -1 when a lock was acquired or released since. */
  private heldId = -1;
  /** Per (word * 256 + mask): the id of {@link held} ∪ that atomic range's pseudo-lock (cleared with heldId). */
  private readonly withAtomic = new Map<number, number>();
  /** The id of {@link held} ∪ {TL}, -1 when not made since heldId was. */
  private withTL = -1;
  /** Lockset id → its sorted (a, b) pairs. */
  private readonly members = new Map<number, number[]>([[EMPTY, []]]);
  /** Lockset id → (lockset id → id of the intersection). */
  private readonly intersections = new Map<number, Map<number, number>>();

  constructor(s: StateViews, t: number) {
    super(s, t);
    this.tables = peerTables(s, BUCKETS);
    s.onCell = (kind) => {
      if (kind === SyncKind.Acquire || kind === SyncKind.Release) this.heldId = -1;
    };
  }

  /**
   * Never: an Eraser record last accessed by this thread still refines its candidate lockset (and may warn) on
   * this thread's next access, so Goldilocks' owner short-circuit for a whole word does not apply.
   */
  protected override uniformPages = false;

  /** No range checks: Eraser's checks are left to the per-access path. */
  override get rangeChecks(): boolean {
    return false;
  }

  protected override shortCircuited(): boolean {
    return false;
  }

  /** The first of the word's records on `mask` that this access turns into a warning (see the file header). */
  override find(word: number, mask: number, flags: number): Conflict | undefined {
    let heap = this.s.heap;
    this.counts[STAT.accesses]++;
    const write = (flags & Access.WRITE) !== 0;
    let held = -1;
    for (let e = heap[headOf(heap, word)]; e !== 0; e = heap[e + Info.NEXT]) {
      if (e + Info.SIZE > heap.length) {
        this.s.refresh();
        heap = this.s.heap;
      }
      const f = heap[e + Info.FLAGS];
      if ((f & mask) === 0) continue;
      this.counts[STAT.checks]++;
      const state = f & STATE;
      if (state === CONFLICT || (state === EXCLUSIVE && heap[e + Info.OWNER] === this.t)) {
        this.counts[STAT.shortCircuitOwner]++;
        continue;
      }
      if (held < 0) held = this.locksHeld(word, mask, flags);
      if (this.step(state, heap[e + LOCKSET], held, write) === CONFLICT)
        return this.conflict(e, state, write);
    }
    return undefined;
  }

  /** Moves the states of the accessed bytes (splitting records) and records the access. Lock held. */
  override record(word: number, mask: number, flags: number, site: number): void {
    const t = this.t;
    const write = (flags & Access.WRITE) !== 0;
    let rest = mask;
    let held = -1;
    for (let e = this.s.heap[headOf(this.s.heap, word)]; e !== 0; ) {
      let heap = this.s.heap;
      if (e + Info.SIZE > heap.length) {
        this.s.refresh();
        heap = this.s.heap;
      }
      const next = heap[e + Info.NEXT];
      const f = heap[e + Info.FLAGS];
      const m = f & mask;
      if (m !== 0) {
        rest &= ~m;
        let state = f & STATE;
        let ls = heap[e + LOCKSET];
        if (state !== CONFLICT && (state !== EXCLUSIVE || heap[e + Info.OWNER] !== t)) {
          if (held < 0) held = this.locksHeld(word, mask, flags);
          state = this.step(state, ls, held, write);
          ls = this.stepLockset;
        }
        const r = (f & Access.MASK) === m ? e : this.split(e, m);
        heap = this.s.heap;
        const u = heap[r + Info.OWNER];
        let other = f & (ACCESS_BITS << OTHER_SHIFT);
        if (u !== t) {
          heap[r + OTHER] = u + 1;
          heap[r + OTHER_SITE] = heap[r + Info.SITE];
          other = (f & ACCESS_BITS) << OTHER_SHIFT;
        }
        heap[r + Info.OWNER] = t;
        heap[r + Info.SITE] = site;
        heap[r + LOCKSET] = ls;
        heap[r + Info.FLAGS] = m | (flags & ACCESS_BITS) | other | state;
      }
      e = next;
    }
    if (rest === 0) return;
    const head = this.headFor(word);
    const n = this.takeInfo();
    const heap = this.s.heap;
    heap[n + Info.FLAGS] = rest | (flags & ACCESS_BITS) | EXCLUSIVE;
    heap[n + Info.OWNER] = t;
    heap[n + LOCKSET] = EMPTY;
    heap[n + Info.SITE] = site;
    heap[n + OTHER] = 0;
    heap[n + OTHER_SITE] = 0;
    heap[n + Info.NEXT] = heap[head];
    heap[head] = n;
  }

  /** The candidate lockset after the last {@link step}. */
  private stepLockset = EMPTY;

  /**
   * Eraser's transition (`src/detectors/eraser/states.ts`, Savage et al. §2.2) of a record in `state` (flag bits;
   * not CONFLICT, and not EXCLUSIVE to this thread) with candidate lockset `ls`, at an access (a write when `write`)
   * holding lockset `held`: Exclusive → Shared / SharedModified with C = held; otherwise C := C ∩ held, and a write
   * makes it SharedModified; SharedModified with an empty C is CONFLICT. @returns the new state (flag bits); the
   * new lockset is left in {@link stepLockset}.
   */
  private step(state: number, ls: number, held: number, write: boolean): number {
    const s = state >> STATE_SHIFT;
    this.stepLockset = states.startsLockset(s) ? held : this.intersect(ls, held);
    return states.next(s, write, this.stepLockset === EMPTY) << STATE_SHIFT;
  }

  /** A copy of record `e` on bytes `m` (a strict subset of its bytes), linked after it; `e` keeps the others. */
  private split(e: number, m: number): number {
    const n = this.takeInfo();
    const heap = this.s.heap;
    for (let i = 0; i < Info.SIZE; i++) heap[n + i] = heap[e + i];
    heap[n + Info.FLAGS] = (heap[e + Info.FLAGS] & ~Access.MASK) | m;
    heap[e + Info.NEXT] = n;
    heap[e + Info.FLAGS] &= ~m;
    return n;
  }

  /** The warning for record `e` (state `state`) at an access of this thread. */
  private conflict(e: number, state: number, write: boolean): Conflict {
    const heap = this.s.heap;
    const f = heap[e + Info.FLAGS];
    let owner = heap[e + Info.OWNER];
    let bits = f & ACCESS_BITS;
    let site = heap[e + Info.SITE];
    if (owner === this.t && heap[e + OTHER] !== 0) {
      owner = heap[e + OTHER] - 1;
      bits = (f >> OTHER_SHIFT) & ACCESS_BITS;
      site = heap[e + OTHER_SITE];
    }
    const locks: number[] = [];
    for (let i = 0; i < this.held.length; i += 2) locks.push(objectKey(this.held[i], this.held[i + 1]));
    return {
      owner,
      flags: (f & Access.MASK) | bits,
      site,
      detail: `Eraser: a ${write ? 'write' : 'read'} of ${states.STATE_NAMES[state >> STATE_SHIFT]} bytes leaves their candidate lockset empty (a potential race: Eraser knows only sync-library locks)`,
      lockset: locks,
    };
  }

  /**
   * The id of the locks this thread holds at an access (with the atomic range's pseudo-lock when ATOMIC, with "TL"
   * when XACT).
   */
  private locksHeld(word: number, mask: number, flags: number): number {
    if (this.heldId < 0) {
      const pairs: number[][] = [];
      for (let i = 0; i < this.held.length; i += 2) pairs.push([this.held[i], this.held[i + 1]]);
      this.heldId = this.intern(pairs);
      this.withAtomic.clear();
      this.withTL = -1;
    }
    if ((flags & Access.XACT) !== 0) {
      if (this.withTL < 0) this.withTL = this.intern(this.pairsOf(this.heldId).concat([[TL_A, TL_B]]));
      return this.withTL;
    }
    if ((flags & Access.ATOMIC) === 0) return this.heldId;
    const key = word * 256 + mask;
    let id = this.withAtomic.get(key);
    if (id === undefined) {
      const pairs = this.pairsOf(this.heldId).concat([[ATOMIC_LOCK | mask, word]]);
      id = this.intern(pairs);
      this.withAtomic.set(key, id);
    }
    return id;
  }

  /** C ∩ H, cached. */
  private intersect(x: number, y: number): number {
    if (x === y || x === EMPTY) return x;
    if (y === EMPTY) return EMPTY;
    let row = this.intersections.get(x);
    if (row === undefined) {
      row = new Map();
      this.intersections.set(x, row);
    }
    let id = row.get(y);
    if (id === undefined) {
      const ys = this.pairsOf(y);
      id = this.intern(this.pairsOf(x).filter(([a, b]) => ys.some(([c, d]) => a === c && b === d)));
      row.set(y, id);
    }
    return id;
  }

  /** The (a, b) pairs of lockset `id`. */
  private pairsOf(id: number): number[][] {
    const flat = this.members.get(id) ?? this.read(id);
    const pairs: number[][] = [];
    for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
    return pairs;
  }

  /** Lockset `id`'s keys from the shared table (published by the atomic store of its chain head). */
  private read(id: number): number[] {
    if (id + L_KEYS > this.s.heap.length) this.s.refresh();
    const n = this.s.heap[id + L_SIZE];
    if (id + L_KEYS + 2 * n > this.s.heap.length) this.s.refresh();
    const flat = Array.from(this.s.heap.subarray(id + L_KEYS, id + L_KEYS + 2 * n));
    this.members.set(id, flat);
    return flat;
  }

  /** The id of the lockset of `pairs` (any order, duplicates allowed), made if new. */
  private intern(pairs: number[][]): number {
    if (pairs.length === 0) return EMPTY;
    pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    const flat: number[] = [];
    for (const [a, b] of pairs) {
      const k = flat.length;
      if (k === 0 || flat[k - 2] !== a || flat[k - 1] !== b) flat.push(a, b);
    }
    const h = hashKeys(flat);
    const head = this.tables + ((h >>> 0) % BUCKETS);
    const found = this.search(rawAtomics.load(this.s.heap, head), h, flat);
    if (found !== 0) return found;
    const s = this.s;
    lock(s, s.ctl, CTL.peerLock);
    try {
      const again = this.search(rawAtomics.load(s.heap, head), h, flat);
      if (again !== 0) return again;
      const id = allocHeap(s, L_KEYS + flat.length);
      const heap = s.heap;
      heap[id + L_HASH] = h;
      heap[id + L_SIZE] = flat.length / 2;
      for (let i = 0; i < flat.length; i++) heap[id + L_KEYS + i] = flat[i];
      heap[id + L_NEXT] = heap[head];
      rawAtomics.store(heap, head, id);
      this.members.set(id, flat);
      return id;
    } finally {
      unlock(s.ctl, CTL.peerLock);
    }
  }

  /** The lockset record with hash `h` and keys `flat` on the chain from `e`, or 0. */
  private search(e: number, h: number, flat: number[]): number {
    for (; e !== 0; e = this.s.heap[e + L_NEXT]) {
      if (e + L_KEYS + flat.length > this.s.heap.length) this.s.refresh();
      const heap = this.s.heap;
      if (heap[e + L_HASH] !== h || heap[e + L_SIZE] !== flat.length / 2) continue;
      let same = true;
      for (let i = 0; i < flat.length && same; i++) same = heap[e + L_KEYS + i] === flat[i];
      if (same) return e;
    }
    return 0;
  }
}
