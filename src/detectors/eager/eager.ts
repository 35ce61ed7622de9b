import type { AccessRef, Detector, DetectorContext } from '../detector.js';

/**
 * A lockset element as a number: `4t` thread t, `4l+1` lock l, `4v+2` volatile v, `4x+3` data variable x (added
 * by commits), {@link TL} the transaction lock.
 */
type Element = number;
const thread = (t: number): Element => 4 * t;
const lock = (l: number): Element => 4 * l + 1;
const volatile = (v: number): Element => 4 * v + 2;
const data = (x: number): Element => 4 * x + 3;
const TL: Element = -1;

/**
 * A lockset class: the one lockset of every kept access whose lockset has these contents (hash-consing). The rules
 * of Figure 5 depend on a lockset's contents only, so accesses with equal locksets keep them equal forever and one
 * update per class stands for one per access.
 */
interface LocksetClass {
  readonly elems: Set<Element>;
  /** `elems` sorted and joined by commas: the key of the class among the live ones. */
  key: string;
  /** Kept accesses whose lockset this is, directly or through classes merged into it. */
  refs: number;
  /** The class this one was merged into when their contents became equal; null while this one is live. */
  merged: LocksetClass | null;
}

interface Access {
  /** Its lockset: this class, or the live class it was merged into (see {@link EagerDetector.lockset}). */
  cls: LocksetClass;
  ref: AccessRef;
  /** The atomic location of an ard/awd, or -1. */
  range: number;
}

interface VarState {
  write: Access | null;
  /**
   * Reads since the last write, by thread: that thread's last read of each kind (plain, or atomic of one location),
   * where a plain read supersedes all of the thread's earlier ones (it conflicts with every write they do).
   */
  reads: Map<number, Access[]>;
}

const keyOf = (elems: Set<Element>): string => [...elems].sort((a, b) => a - b).join();

/** Adds `e` to `ls`; true when it was not there yet. */
function add(ls: Set<Element>, e: Element): boolean {
  if (ls.has(e)) return false;
  ls.add(e);
  return true;
}

/**
 * The oracle: the lockset update rules of Figure 5 of Elmas, Qadeer, Tasiran, "Goldilocks", PLDI'07
 * (../shared/seeds/000_*.txt §4), applied eagerly to explicit locksets, with the read/write distinction of
 * §5 (Theorem 1 per pair of accesses): a lockset for the last write of each variable and one for the last
 * read of each kind (plain, or atomic of one location) of each thread since that write. Lockset elements: threads, locks, volatiles, data variables (added by
 * commits) and TL, the transaction lock (see {@link Element}).
 *
 * A read by t races if the last write's lockset is non-empty and lacks t (and, inside a commit, lacks TL);
 * a write races likewise against the last write and every read since. The data access of an atomic operation
 * (ard/awd) is an access like these, never checked against one of the same atomic location (ECMA-262). After an
 * access the lockset is {t} ({t, TL} inside a commit). Every synchronization event updates every lockset (rules
 * 2-7, 9).
 *
 * Shape: the kept accesses share hash-consed {@link LocksetClass}es, one per distinct lockset content (a Map from
 * the sorted elements to the live class). A rule is applied once per live class; a class whose contents become
 * those of another is merged into it (union-find: the accesses of the merged class reach the other through
 * `merged`), and a class no kept access refers to (overwritten accesses, rule 8) is dropped. Cost: O(live
 * classes) per synchronization event, O(kept accesses of the variable) per access.
 */
export class EagerDetector implements Detector {
  readonly name = 'eager';
  private readonly vars = new Map<number, VarState>();
  /** The live lockset classes by key. */
  private readonly classes = new Map<string, LocksetClass>();
  private n = { checks: 0, races: 0, lockUpdates: 0, classMerges: 0, classesPeak: 0 };

  constructor(private readonly ctx: DetectorContext) {}

  /** The lockset of a kept access: the live class its class was merged into, if it was (path compression). */
  private lockset(a: Access): Set<Element> {
    let c = a.cls;
    while (c.merged !== null) c = c.merged;
    a.cls = c;
    return c.elems;
  }

  /** The live class with these contents (sorted), one more access referring to it; a new class if there is none. */
  private classOf(sorted: Element[]): LocksetClass {
    const key = sorted.join();
    let c = this.classes.get(key);
    if (c === undefined) {
      c = { elems: new Set(sorted), key, refs: 0, merged: null };
      this.classes.set(key, c);
      this.n.classesPeak = Math.max(this.n.classesPeak, this.classes.size);
    }
    c.refs++;
    return c;
  }

  /** An access is no longer kept: its class loses a reference and is dropped at none. */
  private drop(a: Access | null | undefined): void {
    if (!a) return;
    this.lockset(a);
    if (--a.cls.refs === 0) this.classes.delete(a.cls.key);
  }

  /** After `c.elems` changed: re-keys the live class `c`, merging it into a live class of equal contents. */
  private changed(c: LocksetClass): void {
    this.classes.delete(c.key);
    c.key = keyOf(c.elems);
    const same = this.classes.get(c.key);
    if (same === undefined) this.classes.set(c.key, c);
    else {
      c.merged = same;
      same.refs += c.refs;
      this.n.classMerges++;
    }
  }

  /**
   * Applies `update` to every live lockset, re-keying those it changed (it returns true when it did). An update
   * depends on the contents only, so a class merged into one still to be visited changes nothing there.
   */
  private forEachLockset(update: (ls: Set<Element>) => boolean): void {
    for (const c of [...this.classes.values()]) {
      this.n.lockUpdates++;
      if (update(c.elems)) this.changed(c);
    }
  }

  /** For each lockset: if it has `cond`, add `elem` (rules 2-7). */
  private rule(cond: Element, elem: Element): void {
    this.forEachLockset((ls) => ls.has(cond) && add(ls, elem));
  }

  read(t: number, x: number, loc: number, ev: number): void {
    this.access(t, x, { index: ev, thread: t, write: false, xact: false, atomic: false, loc }, -1);
  }

  write(t: number, x: number, loc: number, ev: number): void {
    this.access(t, x, { index: ev, thread: t, write: true, xact: false, atomic: false, loc }, -1);
  }

  atomicAccess(t: number, x: number, v: number, write: boolean, loc: number, ev: number): void {
    this.access(t, x, { index: ev, thread: t, write, xact: false, atomic: true, loc }, v);
  }

  acquire(t: number, l: number): void {
    this.rule(lock(l), thread(t)); // rule 4
  }

  release(t: number, l: number): void {
    this.rule(thread(t), lock(l)); // rule 5
  }

  volatileRead(t: number, v: number): void {
    this.rule(volatile(v), thread(t)); // rule 2
  }

  volatileWrite(t: number, v: number): void {
    this.rule(thread(t), volatile(v)); // rule 3
  }

  /** ECMA-262 atomic write (the variant of rule 3 that replaces): v ∈ LS iff t ∈ LS. */
  atomicWrite(t: number, v: number): void {
    const tv = thread(t);
    const vv = volatile(v);
    this.forEachLockset((ls) => (ls.has(tv) ? add(ls, vv) : ls.delete(vv)));
  }

  fork(t: number, u: number): void {
    this.rule(thread(t), thread(u)); // rule 6
  }

  join(t: number, u: number): void {
    this.rule(thread(u), thread(t)); // rule 7
  }

  /** Rule 9, with R checked as reads and W as writes. */
  commit(t: number, pool: Int32Array, off: number, loc: number, ev: number): void {
    const nr = pool[off];
    const vars = Array.from(pool.subarray(off + 2, off + 2 + nr + pool[off + 1]));
    const elems = vars.map(data);
    const tt = thread(t);
    this.forEachLockset((ls) => elems.some((d) => ls.has(d)) && add(ls, tt));
    vars.forEach((y, j) => {
      this.access(t, y, { index: ev, thread: t, write: j >= nr, xact: true, atomic: false, loc }, -1);
    });
    this.forEachLockset((ls) => ls.has(tt) && elems.map((d) => add(ls, d)).includes(true));
  }

  /** Rule 8: the locksets of o's variables become empty. */
  alloc(_t: number, o: number): void {
    const s = this.ctx.symbols;
    for (let x = s.firstVariableOf(o); x >= 0; x = s.variableNextInObject[x]) this.forget(x);
  }

  /** The lockset of x's last write, as sorted element names (for tests of Figure 6). */
  writeLockset(x: number): string[] {
    const w = this.vars.get(x)?.write;
    return w ? this.names(this.lockset(w)).sort() : [];
  }

  /** x's kept accesses are dropped (its lockset is empty). */
  private forget(x: number): void {
    const s = this.vars.get(x);
    if (s === undefined) return;
    this.drop(s.write);
    for (const rs of s.reads.values()) for (const r of rs) this.drop(r);
    this.vars.delete(x);
  }

  /** Checks and records an access; `range` is its atomic location (ard/awd) or -1. */
  private access(t: number, x: number, ref: AccessRef, range: number): void {
    let s = this.vars.get(x);
    if (s === undefined) {
      s = { write: null, reads: new Map() };
      this.vars.set(x, s);
    }
    const prev = ref.write ? [s.write, ...[...s.reads.values()].flat()] : [s.write];
    for (const p of prev) {
      if (p === null || (range >= 0 && p.range === range)) continue;
      this.n.checks++;
      const ls = this.lockset(p);
      // Rule 1 (rule 9 inside a commit): race iff LS ≠ ∅ and t ∉ LS (and TL ∉ LS for a transactional access).
      if (ls.size > 0 && !ls.has(thread(t)) && !(ref.xact && ls.has(TL))) {
        this.n.races++;
        const names = this.names(ls);
        this.ctx.sink.race({
          variable: x,
          current: ref,
          previous: p.ref,
          detail: `Figure 5: ${this.ctx.symbols.threads.name(t)} ∉ LS = {${names.join(', ')}}`,
          lockset: names,
        });
        break;
      }
    }
    const cls = this.classOf(ref.xact ? [TL, thread(t)] : [thread(t)]);
    const a: Access = { cls, ref, range };
    if (ref.write) {
      for (const p of prev) this.drop(p);
      s.write = a;
      s.reads.clear();
    } else {
      // A later atomic read does not stand for an earlier read of another kind: a write of its location would
      // skip it, yet race with the earlier one (ECMA-262: an atomic load orders nothing before a later store).
      const kept: Access[] = [];
      for (const r of s.reads.get(t) ?? []) {
        if (range >= 0 && r.range !== range) kept.push(r);
        else this.drop(r);
      }
      kept.push(a);
      s.reads.set(t, kept);
    }
  }

  /** The elements' names, in the order of their ids. */
  private names(ls: Set<Element>): string[] {
    return [...ls].sort((a, b) => a - b).map((e) => this.elementName(e));
  }

  private elementName(e: Element): string {
    if (e === TL) return 'TL';
    const id = Math.floor(e / 4);
    const s = this.ctx.symbols;
    switch (e % 4) {
      case 0:
        return s.threads.name(id);
      case 1:
        return s.locks.name(id);
      case 2:
        return `volatile ${s.volatiles.name(id)}`;
      default:
        return `var ${s.variables.name(id)}`;
    }
  }

  stats(): Record<string, number> {
    return { ...this.n, classesLive: this.classes.size };
  }
}
