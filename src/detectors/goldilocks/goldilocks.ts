import { grow, growFilled } from '../../model/interner.js';
import { SyncKind } from '../../model/sync.js';
import type { AccessRef, Detector, DetectorContext } from '../detector.js';
import { conflicting } from '../ecma.js';
import { LocksetTable, WorkingLockset } from './lockset.js';
import { appliesInDirectTransfer, applyRule, DIRECT_TRANSFER_MAX_DISTANCE } from './rules.js';
import { CHECK_DECISIONS, Decided, firstShortCircuits, laterShortCircuits } from './short-circuit.js';
import { SyncEventList } from './sync-list.js';

/** Options of the lazy Goldilocks detector; every optimization can be switched off (for testing). */
export interface GoldilocksOptions {
  /** §5.1: both accesses transactional (default on). */
  xactShortCircuit?: boolean;
  /** §5.1: same owner thread (default on). */
  ownerShortCircuit?: boolean;
  /** §5.1: the previous access's alock is held by the current thread (default on). */
  alockShortCircuit?: boolean;
  /** §5.1: direct ownership transfer, a walk over only the two threads' cells (default on). */
  directTransfer?: boolean;
  /** §5.4: garbage collection of the synchronization event list by reference counts (default on). */
  gc?: boolean;
  /** §5.4: partially-eager evaluation when the list is longer than this many cells (default 200,000; 0 = off). */
  eagerBound?: number;
  /**
   * Walk cache (ours, in the spirit of §5.4): a full walk over at least this many cells leaves its result
   * behind — the Info's lockset is stored explicitly as of the cell where the walk stopped and its pos moves
   * there (a partially-eager evaluation of that one Info). The next check of the same Info starts where this
   * one stopped instead of walking the same cells again; on racy traces, where every failing check walks to
   * the tail, this is what keeps checks short. Shorter walks are not worth interning a lockset.
   * Default 32 cells; 0 = off.
   */
  walkCacheMinCells?: number;
  /**
   * Happens-before memo (ours): remembers, per pair of threads (u, t), the latest list position p such that
   * the lockset {u} at p, evaluated up to now, contains t. The rules of Figure 5 are monotone (a larger
   * lockset before a cell gives a larger one after it) and a thread never leaves a lockset, so the lockset of
   * any Info of u that started at a position p' ≤ p contains u at p and hence everything {u} at p reaches:
   * t too. A later check of such an Info by t is decided without walking (default on).
   */
  hbMemo?: boolean;
  /** §6: stop checking a variable after its first race (default off). */
  stopAfterFirstRace?: boolean;
}

const NO_INFO = -1;
/** Infos and variables the pool and the per-variable arrays hold before they first grow. */
const INITIAL_CAPACITY = 1024;
/** `sole` of a variable no thread has accessed, and of one two or more threads have. */
const NO_THREAD = -1;
const SHARED = -2;
/** The happens-before memo of a thread that has none yet (never written: its length is 0). */
const NO_MEMO = new Float64Array(0);
/**
 * An own record ({@link GoldilocksDetector}'s `own`): 8 numbers of a variable, one 64-byte cache line; its last write's
 * list position, event index, location and alock, then the same of its last read since that write.
 */
const OWN_SLOTS = 8;
const R_POS = 4;
const EV = 1;
const LOC = 2;
const ALOCK = 3;
/** The position slot of an own record without that access. */
const NO_ACCESS = -1;
/** The write's position slot of a variable whose accesses are in Infos, not in its own record. */
const IN_INFOS = -2;

/**
 * Goldilocks, the lazy implementation of Figure 8 of Elmas, Qadeer, Tasiran, PLDI'07
 * (../shared/seeds/000_*.txt §5; CACM version 002_*.txt §4): synchronization events are appended to the
 * synchronization event list; each access leaves an `Info` record (owner, pos, alock, ls, xact) and is
 * checked against the last write's Info (`WriteInfo(x)`) and, for a write, the Infos of the reads since that
 * write (`ReadInfo(x, t)`). A check (Check-Happens-Before) tries the short-circuits of §5.1 in order — both
 * transactional; same owner; alock held by the current thread; direct ownership transfer — and otherwise
 * applies the lockset rules of Figure 5 lazily over the list from `pos` to the tail (Apply-Lockset-Rules).
 * By Theorem 1, the current thread is in the resulting lockset iff the previous access happens-before it.
 *
 * Atomic operations (ECMA-262): their data accesses (ard/awd) are accesses like the others, with the atomic
 * location in the Info; two of the same location are not checked against each other (no data race). Each thread
 * keeps its last read of each kind (plain, or atomic of one location) since the last write: an atomic read does not
 * stand for an earlier read of another kind, which a write of its location would race with (ECMA-262: a load orders
 * nothing before a later store); a plain read supersedes them all.
 * Transactions (§5.3): commit(R, W) is enqueued, then R is checked as reads and W as writes with `xact`; their
 * Infos start at the commit's own cell so that rule 9's "add R ∪ W" is applied to them.
 * Memory (§5.4): cells no Info points to are collected from the head (reference counts); when the list is
 * longer than `eagerBound`, the Infos pointing into its first 10% are evaluated partially-eagerly up to the
 * end of that stretch (explicit, hash-consed locksets), and the stretch is collected. A long full walk leaves
 * its result in the Info the same way (`walkCacheMinCells`), so no long stretch of the list is walked twice
 * for one Info.
 *
 * All state is in flat typed arrays: the list is a ring (sync-list.ts), Infos are a pool indexed by int. While a
 * variable has been accessed by one thread only, by plain accesses outside transactions, its last write and its last
 * read since are not Infos but an own record of 8 numbers (`own`, one cache line: the owner short-circuit of §5.1 needs
 * nothing else of them); they become Infos at its first other access ({@link toInfos}).
 *
 * Over 500 lines on purpose: Figure 8's Handle-Action, Check-Happens-Before and the §5.4 maintenance share the Info
 * pool's arrays, and the access path is tuned to V8's inlining budget (`npm run bench:instructions`), which a class
 * split across modules would not keep; the rules, the short-circuit decision and the ECMA-262 predicate are the
 * shared modules `./rules.ts`, `./short-circuit.ts`, `../ecma.ts`.
 */
export class GoldilocksDetector implements Detector {
  readonly name = 'goldilocks';
  private readonly list = new SyncEventList();
  private readonly locksets = new LocksetTable();
  private readonly ws = new WorkingLockset();
  /** Where the last Apply-Lockset-Rules stopped (exclusive). */
  private walkEnd = 0;
  /** hbMemo: `proven[t][u]` = the latest position p such that {u} at p, evaluated up to now, contains t; or -1. */
  private readonly proven: Float64Array[] = [];
  private readonly opt: Required<GoldilocksOptions>;

  // Info pool
  private iOwner: Int32Array = new Int32Array(0);
  private iPos: Float64Array = new Float64Array(0);
  /**
   * Where the Info started: the list position at its access, with lockset {owner}. Partially-eager evaluation
   * and the walk cache move pos forward with an explicit lockset, always the evaluation of {owner} from here.
   */
  private iOrigin: Float64Array = new Float64Array(0);
  private iXact: Uint8Array = new Uint8Array(0);
  private iWrite: Uint8Array = new Uint8Array(0);
  /** The atomic location of an access by an atomic operation (ard/awd), or -1. */
  private iRange: Int32Array = new Int32Array(0);
  /** The alock (first lock held) of the access, or -1; -1 too with the alock short-circuit off. */
  private iAlock: Int32Array = new Int32Array(0);
  private iEv: Float64Array = new Float64Array(0);
  private iLoc: Int32Array = new Int32Array(0);
  /** Explicit lockset id after partially-eager evaluation, or -1 for the implicit {owner}. */
  private iLs: Int32Array = new Int32Array(0);
  /** Next Info in the variable's read list, or in the free list. */
  private iNext: Int32Array = new Int32Array(0);
  /** Variable of a live Info, -1 when free. */
  private iVar: Int32Array = new Int32Array(0);
  private freeInfo = NO_INFO;
  /** Whether an atomic read has been checked: until then a thread has at most one read Info per variable. */
  private atomicReadSeen = false;
  private infoCount = 0;

  // Per variable
  private writeInfo: Int32Array = new Int32Array(0);
  private readHead: Int32Array = new Int32Array(0);
  private disabled: Uint8Array = new Uint8Array(0);
  /** The only thread that has accessed the variable so far, NO_THREAD (none) or SHARED (two or more): `ownAccess`. */
  private sole: Int32Array = new Int32Array(0);
  /**
   * Own records, {@link OWN_SLOTS} numbers per variable (ours, issue 24 §3): while `sole[x]` is a thread and slot 0 is
   * not IN_INFOS, x's last write and its last read since are these numbers, with no Infos (writeInfo and readHead
   * NO_INFO), each holding its list position's reference; NO_ACCESS where there is none. An Info costs a dozen stores
   * into a dozen arrays (a cache line each); an own access, 4 stores into one line. IN_INFOS from x's first other
   * access on ({@link toInfos}), or from its first access if that was not a plain one outside transactions.
   */
  private own: Float64Array = new Float64Array(0);

  /**
   * How each check was decided: counts indexed by {@link Decided} (names in CHECK_DECISIONS); `checks` in
   * {@link stats} is their sum (one counter less on the hot path).
   */
  private readonly decided = new Float64Array(CHECK_DECISIONS.length);
  // The shared predicates as fields that are never reassigned: V8 then calls the known function, without the
  // module binding's load and checks at each call (`npm run bench:instructions`).
  private readonly conflicting = conflicting;
  private readonly firstShortCircuits = firstShortCircuits;
  private readonly laterShortCircuitsRule = laterShortCircuits;
  private readonly n = {
    directTransferCells: 0,
    walks: 0,
    walkCells: 0,
    walkMax: 0,
    walksCached: 0,
    races: 0,
    listPeak: 0,
    cellsCollected: 0,
    eagerRuns: 0,
    eagerInfos: 0,
    eagerCells: 0,
    skippedAfterRace: 0,
  };

  constructor(
    private readonly ctx: DetectorContext,
    options: GoldilocksOptions = {},
  ) {
    this.opt = {
      xactShortCircuit: options.xactShortCircuit ?? true,
      ownerShortCircuit: options.ownerShortCircuit ?? true,
      alockShortCircuit: options.alockShortCircuit ?? true,
      directTransfer: options.directTransfer ?? true,
      gc: options.gc ?? true,
      eagerBound: options.eagerBound ?? 200_000,
      walkCacheMinCells: options.walkCacheMinCells ?? 32,
      hbMemo: options.hbMemo ?? true,
      stopAfterFirstRace: options.stopAfterFirstRace ?? false,
    };
    // allocated by the methods that grow them, so that each field is written twice before any code runs (V8 then
    // compiles no code that relies on its first value: docs/ARCHITECTURE.md, "Tables that grow")
    this.growInfos();
    this.growVars(INITIAL_CAPACITY);
  }

  // ---- synchronization events (Handle-Action lines 1-2) ----

  acquire(t: number, l: number): void {
    this.enqueue(SyncKind.Acquire, t, l);
  }
  release(t: number, l: number): void {
    this.enqueue(SyncKind.Release, t, l);
  }
  volatileRead(t: number, v: number): void {
    this.enqueue(SyncKind.VolatileRead, t, v);
  }
  volatileWrite(t: number, v: number): void {
    this.enqueue(SyncKind.VolatileWrite, t, v);
  }
  atomicWrite(t: number, v: number): void {
    this.enqueue(SyncKind.AtomicWrite, t, v);
  }
  fork(t: number, u: number): void {
    this.enqueue(SyncKind.Fork, t, u);
  }
  join(t: number, u: number): void {
    this.enqueue(SyncKind.Join, t, u);
  }

  /** Handle-Action lines 24-28: enqueue commit(R, W), then check R as reads and W as writes. */
  commit(t: number, pool: Int32Array, off: number, loc: number, ev: number): void {
    const nr = pool[off];
    const n = nr + pool[off + 1];
    const set = pool.slice(off + 2, off + 2 + n);
    const pos = this.list.append(SyncKind.Commit, t, 0, set);
    for (let j = 0; j < n; j++) this.access(t, set[j], loc, ev, j >= nr, true, pos, -1);
    this.maintain(); // after the accesses: their Infos hold the commit cell
  }

  /** Rule 8: alloc(o) empties the locksets of o's variables: their Infos are dropped. */
  alloc(_t: number, o: number): void {
    const s = this.ctx.symbols;
    for (let x = s.firstVariableOf(o); x >= 0; x = s.variableNextInObject[x]) {
      if (x >= this.writeInfo.length) continue;
      if (this.writeInfo[x] !== NO_INFO) this.freeInfoRecord(this.writeInfo[x]);
      this.writeInfo[x] = NO_INFO;
      this.clearReads(x);
      if (this.inOwnRecord(x)) this.clearOwnRecord(x);
      this.disabled[x] = 0;
    }
  }

  read(t: number, x: number, loc: number, ev: number): void {
    if (this.isOwn(t, x)) this.ownAccess(t, x, loc, ev, false, this.list.tail);
    else this.access(t, x, loc, ev, false, false, this.list.tail, -1);
  }

  write(t: number, x: number, loc: number, ev: number): void {
    if (this.isOwn(t, x)) this.ownAccess(t, x, loc, ev, true, this.list.tail);
    else this.access(t, x, loc, ev, true, false, this.list.tail, -1);
  }

  /**
   * Whether a plain access of `x` by t takes {@link access}'s path to {@link ownAccess}: `x` known, t the only thread
   * that has accessed it, only plain reads checked so far, the owner short-circuit on, and `stopAfterFirstRace` off
   * (access then tests the variable first). Tested in {@link read} and {@link write}, which then call ownAccess
   * themselves: one call less on ~80% of the realistic trace's accesses (issue 24 §3: 1490.7 instructions per line of
   * the 2M-event realistic trace against 1581.1 through access, `npm run bench:instructions`).
   */
  private isOwn(t: number, x: number): boolean {
    return (
      x < this.sole.length &&
      this.sole[x] === t &&
      this.atomicReadSeen === false &&
      this.opt.ownerShortCircuit === true &&
      this.opt.stopAfterFirstRace !== true
    );
  }

  atomicAccess(t: number, x: number, v: number, write: boolean, loc: number, ev: number): void {
    if (!write) this.atomicReadSeen = true;
    this.access(t, x, loc, ev, write, false, this.list.tail, v);
  }

  // ---- accesses (Handle-Action lines 3-23) ----

  private access(
    t: number,
    x: number,
    loc: number,
    ev: number,
    write: boolean,
    xact: boolean,
    pos: number,
    range: number,
  ): void {
    if (x >= this.writeInfo.length) this.growVars(x + 1);
    // set only with stopAfterFirstRace: without it the flag is not loaded (one cache line less per access)
    const stop = this.opt.stopAfterFirstRace === true;
    if (stop && this.disabled[x] !== 0) {
      this.n.skippedAfterRace++;
      return;
    }
    const sole = this.sole[x];
    if (sole !== SHARED && this.unsharedAccess(t, x, sole, loc, ev, write, xact, pos, range)) return;
    let racy = false;
    const w = this.writeInfo[x];
    // ECMA-262 (../ecma.ts): the same variable, one access a write; two accesses of atomic operations on the same
    // location (range ≥ 0, and then the other's range is ≥ 0 when equal) are no data race. The ranges are compared
    // only when both are atomic (the predicate reads them only then): a plain access loads no range. A plain access
    // (range < 0: not both atomic) conflicts with every Info of x by the predicate itself, which is then not called
    // (issue 24 §3: V8 did not inline it into access, ~58 instructions a call on the realistic trace's shared accesses).
    if (
      w !== NO_INFO &&
      (range < 0 || this.conflicting(true, true, true, this.iRange[w] === range)) &&
      !this.shortCircuit(w, t, xact)
    )
      racy = !this.checkHappensBefore(w, t, xact, range, x, loc, ev, write);
    if (write === true) {
      // each read since the last write is checked (until one races) and dropped, in one pass
      for (let r = this.readHead[x]; r !== NO_INFO; ) {
        const next = this.iNext[r];
        if (
          !racy &&
          (range < 0 || this.conflicting(true, true, true, this.iRange[r] === range)) &&
          !this.shortCircuit(r, t, xact)
        )
          racy = !this.checkHappensBefore(r, t, xact, range, x, loc, ev, write);
        this.freeInfoRecord(r);
        r = next;
      }
      this.readHead[x] = NO_INFO;
      this.writeInfo[x] = this.newInfo(w, x, t, pos, xact, range, true, loc, ev);
    } else {
      const reuse = this.atomicReadSeen ? this.lastReadOfKind(x, t, range) : this.lastRead(x, t);
      if (reuse === NO_INFO) {
        const r = this.newInfo(NO_INFO, x, t, pos, xact, range, false, loc, ev);
        this.iNext[r] = this.readHead[x];
        this.readHead[x] = r;
      } else this.newInfo(reuse, x, t, pos, xact, range, false, loc, ev);
    }
    // `stop` first: tested after `racy`, the option's load had no type feedback until the trace's first race, which
    // then sent the optimized access back to unoptimized code (--trace-deopt, issue 24 §3)
    if (stop && racy) this.disabled[x] = 1;
  }

  /**
   * {@link access} of `x` while no two threads have accessed it (`sole`: NO_THREAD, or the one thread). An own access
   * — by that thread, plain, outside transactions, while only plain reads have been checked, the owner short-circuit on
   * (here also with stopAfterFirstRace, under which read and write do not call ownAccess) — is recorded by
   * {@link ownAccess}: true. Otherwise x's own record becomes Infos for the general path and `sole` is updated: false.
   */
  private unsharedAccess(
    t: number,
    x: number,
    sole: number,
    loc: number,
    ev: number,
    write: boolean,
    xact: boolean,
    pos: number,
    range: number,
  ): boolean {
    const ownable =
      range < 0 && xact === false && this.atomicReadSeen === false && this.opt.ownerShortCircuit === true;
    if (sole === NO_THREAD) {
      this.sole[x] = t;
      const b = x * OWN_SLOTS;
      this.own[b] = ownable ? NO_ACCESS : IN_INFOS;
      this.own[b + R_POS] = NO_ACCESS;
    } else if (sole !== t) {
      if (this.inOwnRecord(x, sole)) this.toInfos(x, sole);
      this.sole[x] = SHARED;
      return false;
    }
    if (ownable) this.ownAccess(t, x, loc, ev, write, pos);
    else if (this.inOwnRecord(x, t)) this.toInfos(x, t);
    return ownable;
  }

  /**
   * {@link access} of a plain, non-transactional access of `x` by t, the only thread that has accessed `x` so far (so
   * every access recorded of `x` is t's; `sole`), while only plain reads have been checked: each check is the owner
   * short-circuit (§5.1), counted as {@link shortCircuit} counts it; the access is recorded in x's own record
   * (`own`: a write drops the read since the last write), or in its Infos if it has them ({@link ownInfoAccess}).
   * Issue 24 §3: about 80% of the accesses of the realistic trace are of variables local to a thread.
   */
  private ownAccess(t: number, x: number, loc: number, ev: number, write: boolean, pos: number): void {
    const own = this.own;
    const b = x * OWN_SLOTS;
    const wPos = own[b];
    if (wPos === IN_INFOS) {
      this.ownInfoAccess(t, x, loc, ev, write, pos);
      return;
    }
    const list = this.list;
    const rPos = own[b + R_POS];
    let checks = wPos !== NO_ACCESS ? 1 : 0;
    let s = b + R_POS;
    let prev = rPos;
    if (write === true) {
      if (rPos !== NO_ACCESS) {
        checks++;
        list.release(rPos);
        own[b + R_POS] = NO_ACCESS;
      }
      s = b;
      prev = wPos;
    }
    if (prev === NO_ACCESS) list.retain(pos);
    else if (prev !== pos) list.move(prev, pos);
    own[s] = pos;
    own[s + EV] = ev;
    own[s + LOC] = loc;
    own[s + ALOCK] = this.alockOf(t);
    this.decided[Decided.Owner] += checks;
  }

  /** {@link ownAccess} of a variable whose accesses are in Infos: t's write Info, and t's read Info the only one. */
  private ownInfoAccess(t: number, x: number, loc: number, ev: number, write: boolean, pos: number): void {
    const w = this.writeInfo[x];
    let checks = w !== NO_INFO ? 1 : 0;
    const r = this.readHead[x];
    if (write === true) {
      if (r !== NO_INFO) {
        checks++;
        this.freeInfoRecord(r);
        this.readHead[x] = NO_INFO;
      }
      if (w === NO_INFO) this.writeInfo[x] = this.newInfo(NO_INFO, x, t, pos, false, -1, true, loc, ev);
      else this.renewInfo(w, t, pos, false, -1, loc, ev);
    } else if (r === NO_INFO) this.readHead[x] = this.newInfo(NO_INFO, x, t, pos, false, -1, false, loc, ev);
    else this.renewInfo(r, t, pos, false, -1, loc, ev);
    this.decided[Decided.Owner] += checks;
  }

  /** Thread t's read Info of `x`, or NO_INFO, while only plain reads have been checked (at most one per thread). */
  private lastRead(x: number, t: number): number {
    let r = this.readHead[x];
    while (r !== NO_INFO && this.iOwner[r] !== t) r = this.iNext[r];
    return r;
  }

  /**
   * Thread t's read Info of `x` of the kind of a read of atomic location `range` (-1: plain), or NO_INFO. t keeps its
   * last read of each kind (plain, or atomic of one location); a plain read supersedes the others, which are dropped.
   */
  private lastReadOfKind(x: number, t: number, range: number): number {
    let reuse = NO_INFO;
    let prev = NO_INFO;
    for (let r = this.readHead[x]; r !== NO_INFO; ) {
      const next = this.iNext[r];
      if (this.iOwner[r] === t && (range < 0 || this.iRange[r] === range)) {
        if (reuse === NO_INFO) reuse = r;
        else {
          if (prev === NO_INFO) this.readHead[x] = next;
          else this.iNext[prev] = next;
          this.freeInfoRecord(r);
          r = next;
          continue;
        }
      }
      prev = r;
      r = next;
    }
    return reuse;
  }

  /**
   * The short-circuits of Check-Happens-Before (§5.1, `./short-circuit.ts`), in order: both transactional; same
   * owner; then ({@link laterShortCircuits}) the Info's alock held by thread t, and our happens-before memo. Small, so
   * that it is inlined where it is called; the lockset walk is {@link checkHappensBefore}. Boolean options and
   * parameters are tested `=== true` here and in {@link access}: V8 then compares with the constant instead of
   * converting a value of unknown type (ToBoolean: a dozen instructions), measured by `npm run bench:instructions`.
   * @returns true if one of them proves that the access recorded by `info` happens-before the current access of
   * thread t (counted in {@link decided}); false if the walk must decide.
   */
  private shortCircuit(info: number, t: number, xact: boolean): boolean {
    const opt = this.opt;
    const owner = this.iOwner[info];
    let d = this.firstShortCircuits(
      xact === true && opt.xactShortCircuit === true && this.iXact[info] !== 0,
      opt.ownerShortCircuit === true ? owner : -1,
      t,
    );
    if (d < 0) {
      d = this.laterShortCircuits(info, owner, t);
      if (d < 0) return false;
    }
    this.decided[d]++;
    return true;
  }

  /**
   * {@link laterShortCircuits} (§5.1) for `info` of `owner` against thread t, after the first ones failed: the alock,
   * then the happens-before memo. Boolean options and parameters are tested `=== true` here and in {@link access}:
   * V8 then compares with the constant instead of converting a value of unknown type (ToBoolean: a dozen
   * instructions), measured by `npm run bench:instructions`.
   * @returns the `Decided` index of the short-circuit that proves happens-before, or `Decided.NONE`.
   */
  private laterShortCircuits(info: number, owner: number, t: number): number {
    const alock = this.iAlock[info]; // -1 with the alock short-circuit off
    const locks = this.ctx.locks;
    const memo = this.proven;
    const f = t < memo.length ? memo[t] : NO_MEMO;
    return this.laterShortCircuitsRule(
      alock >= 0 && !locks.mutualExclusionBroken ? locks.holder[alock] : -1,
      t,
      this.iOrigin[info],
      owner < f.length ? f[owner] : -1, // never filled with hbMemo off
    );
  }

  /**
   * Check-Happens-Before(info1, info2) of Figure 8 after {@link shortCircuit}: direct ownership transfer (§5.1), then
   * Apply-Lockset-Rules from the Info's pos to the tail. Reports the race when thread t is not in the resulting
   * lockset.
   * @returns true if the access recorded by `info` happens-before the current access of thread t.
   */
  private checkHappensBefore(
    info: number,
    t: number,
    xact: boolean,
    range: number,
    x: number,
    loc: number,
    ev: number,
    write: boolean,
  ): boolean {
    const owner = this.iOwner[info];
    const pos = this.iPos[info];
    const origin = this.iOrigin[info];
    if (this.opt.directTransfer && this.list.tail - pos <= DIRECT_TRANSFER_MAX_DISTANCE) {
      this.startLockset(info);
      const cells = this.applyLocksetRules(pos, this.list.tail, t, owner);
      this.n.directTransferCells += cells;
      if (this.ws.hasThread(t)) {
        this.decided[Decided.DirectTransfer]++;
        this.remember(owner, origin, t);
        return true;
      }
    }
    this.decided[Decided.Lockset]++;
    this.startLockset(info);
    const cells = this.applyLocksetRules(pos, this.list.tail, t, -1);
    this.n.walks++;
    this.n.walkCells += cells;
    if (cells > this.n.walkMax) this.n.walkMax = cells;
    const cacheMin = this.opt.walkCacheMinCells;
    if (cacheMin > 0 && cells >= cacheMin) {
      this.n.walksCached++;
      this.moveInfo(info, this.walkEnd, this.locksets.retain(this.ws.codes()));
    }
    if (this.ws.hasThread(t)) {
      this.remember(owner, origin, t);
      return true;
    }
    // Theorem 1: TL ∈ LS iff the previous access was transactional (then a transactional access is race-free).
    if (xact && this.iXact[info] !== 0) return true;
    this.reportRace(info, { index: ev, thread: t, write, xact, atomic: range >= 0, loc }, x, cells);
    return false;
  }

  /**
   * The race of access `current` of variable `x` with the one `info` records, found by a walk over `cells` cells that
   * left the working lockset without the current thread: to the sink. A method of its own, called on a race only: V8
   * then does not compile it into {@link checkHappensBefore} (a call run in fewer than 15% of its calls is not inlined).
   */
  private reportRace(info: number, current: AccessRef, x: number, cells: number): void {
    this.n.races++;
    const s = this.ctx.symbols;
    const ls = this.ws.names(s);
    if (this.iXact[info] !== 0) ls.push('TL');
    this.ctx.sink.race({
      variable: x,
      current,
      previous: {
        index: this.iEv[info],
        thread: this.iOwner[info],
        write: this.iWrite[info] !== 0,
        xact: this.iXact[info] !== 0,
        atomic: this.iRange[info] >= 0,
        loc: this.iLoc[info],
      },
      detail: `lockset walk over ${cells} synchronization events: ${s.threads.name(current.thread)} ∉ LS(${s.variables.name(x)})`,
      lockset: ls,
    });
  }

  /** hbMemo: the lockset {u} at `pos`, evaluated up to now, contains t. */
  private remember(u: number, pos: number, t: number): void {
    if (!this.opt.hbMemo) return;
    const memo = this.proven;
    while (memo.length <= t) memo.push(NO_MEMO); // dense: a hole or an out-of-bounds read is V8's slow path
    let f = memo[t];
    if (u >= f.length) {
      f = growFilled(f, Math.max(u + 1, 2 * (f.length || 4)), -1);
      memo[t] = f;
    }
    if (pos > f[u]) f[u] = pos;
  }

  /** Loads the lockset of `info` (explicit, or {owner}) into the working lockset. */
  private startLockset(info: number): void {
    this.ws.reset(this.ctx.symbols);
    const id = this.iLs[info];
    if (id < 0) this.ws.addThread(this.iOwner[info]);
    else this.ws.load(this.locksets.get(id));
  }

  /**
   * Apply-Lockset-Rules: the rules of Figure 5 for the cells [from, to) on the working lockset. Stops as
   * soon as `target` (≥ 0) is in the lockset. With `other` ≥ 0, only the cells of threads `other` and
   * `target`, and atomic writes, are applied (direct ownership transfer: the rules that only add elements
   * are skipped for other threads, so the result is a subset of the lockset — sound: it only ever proves
   * happens-before).
   * Sets `walkEnd` to the position after the last cell applied.
   * @returns the number of cells visited.
   */
  private applyLocksetRules(from: number, to: number, target: number, other: number): number {
    const ws = this.ws;
    if (target >= 0 && ws.hasThread(target)) return 0;
    const list = this.list;
    const mask = list.mask;
    const kinds = list.kind;
    const threads = list.thread;
    const targets = list.target;
    const sets = list.sets;
    let visited = 0;
    let p = from;
    for (; p < to; p++) {
      const c = p & mask;
      const u = threads[c];
      const kind = kinds[c];
      if (other >= 0 && !appliesInDirectTransfer(kind, u, target, other)) continue;
      visited++;
      applyRule(ws, kind, u, targets[c], sets[c]);
      if (target >= 0 && ws.hasThread(target)) {
        p++;
        break;
      }
    }
    this.walkEnd = p;
    return visited;
  }

  // ---- the synchronization event list, GC and partially-eager evaluation (§5.4) ----

  private enqueue(kind: number, t: number, target: number): void {
    this.list.append(kind, t, target, null);
    this.maintain();
  }

  /** GC of the list's unreferenced prefix, and partially-eager evaluation beyond the bound. */
  private maintain(): void {
    const list = this.list;
    if (this.opt.gc) this.n.cellsCollected += list.collect();
    const len = list.tail - list.head;
    if (len > this.n.listPeak) this.n.listPeak = len;
    const bound = this.opt.eagerBound;
    if (bound > 0 && len > bound) this.partiallyEager(list.head + Math.max(1, Math.ceil(bound / 10)));
  }

  /**
   * §5.4: for every Info whose pos is before `until`, evaluate its lockset up to `until` and move pos there;
   * then collect the prefix. Infos with the same (pos, lockset) share one evaluation.
   */
  private partiallyEager(until: number): void {
    this.n.eagerRuns++;
    // own records with an access before `until` become Infos, which the loop below moves
    const own = this.own;
    for (let x = 0; x < this.sole.length; x++) {
      const b = x * OWN_SLOTS;
      if (
        this.inOwnRecord(x) &&
        ((own[b] >= 0 && own[b] < until) || (own[b + R_POS] >= 0 && own[b + R_POS] < until))
      )
        this.toInfos(x, this.sole[x]);
    }
    const memo = new Map<string, number>();
    for (let i = 0; i < this.infoCount; i++) {
      if (this.iVar[i] < 0) continue;
      const pos = this.iPos[i];
      if (pos >= until) continue;
      const start = this.iLs[i] < 0 ? `t${this.iOwner[i]}` : `s${this.iLs[i]}`;
      const key = `${pos}:${start}`;
      let id = memo.get(key);
      if (id === undefined) {
        this.startLockset(i);
        this.n.eagerCells += this.applyLocksetRules(pos, until, -1, -1);
        id = this.locksets.retain(this.ws.codes());
        memo.set(key, id);
      } else this.locksets.share(id);
      this.n.eagerInfos++;
      this.moveInfo(i, until, id);
    }
    this.n.cellsCollected += this.list.collect();
  }

  // ---- Info records ----

  /**
   * Moves Info `i` to position `pos` with the explicit lockset `id` (already retained for it): its lockset
   * as evaluated over the cells up to `pos`.
   */
  private moveInfo(i: number, pos: number, id: number): void {
    if (this.iLs[i] >= 0) this.locksets.release(this.iLs[i]);
    this.iLs[i] = id;
    this.list.move(this.iPos[i], pos);
    this.iPos[i] = pos;
  }

  /** Fills Info `reuse` (or a new one) for an access; moves its reference into the list. */
  private newInfo(
    reuse: number,
    x: number,
    t: number,
    pos: number,
    xact: boolean,
    range: number,
    write: boolean,
    loc: number,
    ev: number,
  ): number {
    let i = reuse;
    if (i === NO_INFO) {
      i = this.freeInfo;
      if (i !== NO_INFO) this.freeInfo = this.iNext[i];
      else {
        if (this.infoCount === this.iOwner.length) this.growInfos();
        i = this.infoCount++;
      }
      this.iNext[i] = NO_INFO;
      this.list.retain(pos);
      this.iPos[i] = pos;
      this.iLs[i] = -1;
    }
    this.iVar[i] = x;
    this.iOwner[i] = t;
    this.iWrite[i] = write === true ? 1 : 0;
    this.renewInfo(i, t, pos, xact, range, loc, ev);
    return i;
  }

  /**
   * {@link newInfo} of Info `i` of thread t, kept for t's next access of its variable of the same kind (a write's for a
   * write, a read's for a read): its variable, owner and kind stay; the rest is the access's, and its list reference
   * moves to `pos` (not when it is there already: no synchronization since). {@link ownAccess} calls it directly (issue
   * 24 §3: three stores fewer on ~80% of the realistic trace's accesses).
   */
  private renewInfo(
    i: number,
    t: number,
    pos: number,
    xact: boolean,
    range: number,
    loc: number,
    ev: number,
  ): void {
    if (this.iPos[i] !== pos) {
      this.list.move(this.iPos[i], pos);
      this.iPos[i] = pos;
    }
    if (this.iLs[i] >= 0) {
      this.locksets.release(this.iLs[i]);
      this.iLs[i] = -1;
    }
    this.iOrigin[i] = pos;
    this.iXact[i] = xact === true ? 1 : 0;
    this.iRange[i] = range;
    this.iAlock[i] = this.alockOf(t);
    this.iEv[i] = ev;
    this.iLoc[i] = loc;
  }

  /** The alock of an access by thread t now: the first lock t holds, or -1 (none, or the alock short-circuit off). */
  private alockOf(t: number): number {
    const held = this.ctx.locks.held[t];
    return held !== undefined && held.length > 0 && this.opt.alockShortCircuit === true ? held[0] : -1;
  }

  /** Whether x's accesses are in its own record (see `own`); `sole`: `sole[x]`. */
  private inOwnRecord(x: number, sole = this.sole[x]): boolean {
    return sole >= 0 && this.own[x * OWN_SLOTS] !== IN_INFOS;
  }

  /**
   * The Infos of x's own record, of thread u (its write's as writeInfo, its read's as readHead), each taking its
   * access's list reference and alock; x's accesses are in Infos from then on.
   */
  private toInfos(x: number, u: number): void {
    const b = x * OWN_SLOTS;
    this.writeInfo[x] = this.ownInfo(x, u, b, true);
    this.readHead[x] = this.ownInfo(x, u, b + R_POS, false);
    this.own[b] = IN_INFOS;
  }

  /** {@link toInfos}: the Info of the access at slot `s` of x's own record (of thread u), or NO_INFO if none. */
  private ownInfo(x: number, u: number, s: number, write: boolean): number {
    const own = this.own;
    const pos = own[s];
    if (pos === NO_ACCESS) return NO_INFO;
    const i = this.newInfo(NO_INFO, x, u, pos, false, -1, write, own[s + LOC], own[s + EV]);
    this.list.release(pos); // newInfo's own reference: the record's becomes the Info's
    this.iAlock[i] = own[s + ALOCK]; // the access's, not t's locks now
    return i;
  }

  /** Alloc (rule 8) of x while in its own record: its accesses are dropped, and their list references. */
  private clearOwnRecord(x: number): void {
    const own = this.own;
    const b = x * OWN_SLOTS;
    if (own[b] !== NO_ACCESS) this.list.release(own[b]);
    if (own[b + R_POS] !== NO_ACCESS) this.list.release(own[b + R_POS]);
    own[b] = NO_ACCESS;
    own[b + R_POS] = NO_ACCESS;
  }

  private freeInfoRecord(i: number): void {
    this.list.release(this.iPos[i]);
    if (this.iLs[i] >= 0) this.locksets.release(this.iLs[i]);
    this.iLs[i] = -1;
    this.iVar[i] = -1;
    this.iNext[i] = this.freeInfo;
    this.freeInfo = i;
  }

  private clearReads(x: number): void {
    let r = this.readHead[x];
    while (r !== NO_INFO) {
      const next = this.iNext[r];
      this.freeInfoRecord(r);
      r = next;
    }
    this.readHead[x] = NO_INFO;
  }

  /** Doubles the Info pool (allocates its first {@link INITIAL_CAPACITY} Infos when it has none). */
  private growInfos(): void {
    const cap = Math.max(INITIAL_CAPACITY, this.iOwner.length * 2);
    this.iOwner = grow(this.iOwner, cap);
    this.iPos = grow(this.iPos, cap);
    this.iOrigin = grow(this.iOrigin, cap);
    this.iXact = grow(this.iXact, cap);
    this.iWrite = grow(this.iWrite, cap);
    this.iRange = grow(this.iRange, cap);
    this.iAlock = grow(this.iAlock, cap);
    this.iEv = grow(this.iEv, cap);
    this.iLoc = grow(this.iLoc, cap);
    this.iLs = grow(this.iLs, cap);
    this.iNext = grow(this.iNext, cap);
    this.iVar = growFilled(this.iVar, cap, -1);
  }

  /** Grows the per-variable arrays (at least doubling, to {@link INITIAL_CAPACITY} at first) to hold `n` variables. */
  private growVars(n: number): void {
    let cap = Math.max(INITIAL_CAPACITY, this.writeInfo.length * 2);
    while (cap < n) cap *= 2;
    this.writeInfo = growFilled(this.writeInfo, cap, NO_INFO);
    this.readHead = growFilled(this.readHead, cap, NO_INFO);
    this.disabled = grow(this.disabled, cap);
    this.sole = growFilled(this.sole, cap, NO_THREAD);
    this.own = grow(this.own, cap * OWN_SLOTS);
  }

  /**
   * The lockset LS(x) of x's last write as of now (Figure 5's explicit set, computed lazily), as sorted names;
   * [] if x has no write Info. For tests and explanations (Figure 6).
   */
  writeLockset(x: number): string[] {
    if (x < this.sole.length && this.inOwnRecord(x)) this.toInfos(x, this.sole[x]);
    const w = x < this.writeInfo.length ? this.writeInfo[x] : NO_INFO;
    if (w === NO_INFO) return [];
    this.startLockset(w);
    this.applyLocksetRules(this.iPos[w], this.list.tail, -1, -1);
    const names = this.ws.names(this.ctx.symbols);
    if (this.iXact[w] !== 0) names.push('TL');
    return names.sort();
  }

  stats(): Record<string, number> {
    const rest = this.n;
    const checks = this.decided.reduce((a, b) => a + b, 0);
    const decided: Record<string, number> = {};
    CHECK_DECISIONS.forEach((name, d) => {
      decided[name] = this.decided[d];
    });
    return {
      checks,
      ...decided,
      ...rest,
      listLength: this.list.tail - this.list.head,
      infos: this.infoCount,
      locksetsLive: this.locksets.size,
    };
  }
}
