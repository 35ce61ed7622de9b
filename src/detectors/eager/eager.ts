import type { AccessRef, Detector, DetectorContext } from '../detector.js';

type Lockset = Set<string>;

interface Access {
  ls: Lockset;
  ref: AccessRef;
  /** The atomic location of an ard/awd, or -1. */
  range: number;
}

interface VarState {
  write: Access | null;
  /** Reads since the last write, by thread. */
  reads: Map<number, Access>;
}

const TL = 'TL';

/**
 * The oracle: the lockset update rules of Figure 5 of Elmas, Qadeer, Tasiran, "Goldilocks", PLDI'07
 * (../shared/seeds/000_*.txt §4), applied eagerly to explicit locksets, with the read/write distinction of
 * §5 (Theorem 1 per pair of accesses): a lockset for the last write of each variable and one for the last
 * read of each thread since that write. Lockset elements: `T:t` threads, `L:l` locks, `V:v` volatiles,
 * `D:x` data variables (added by commits), `TL` the transaction lock.
 *
 * A read by t races if the last write's lockset is non-empty and lacks t (and, inside a commit, lacks TL);
 * a write races likewise against the last write and every read since. The data access of an atomic operation
 * (ard/awd) is an access like these, never checked against one of the same atomic location (ECMA-262). After an access the lockset is {t}
 * ({t, TL} inside a commit). Every synchronization event updates every lockset (rules 2-7, 9). This is
 * O(locksets) per synchronization event: small and obviously right, not fast.
 */
export class EagerDetector implements Detector {
  readonly name = 'eager';
  private readonly vars = new Map<number, VarState>();
  private n = { checks: 0, races: 0, lockUpdates: 0 };

  constructor(private readonly ctx: DetectorContext) {}

  /** Every lockset currently kept. */
  private *locksets(): Generator<Lockset> {
    for (const s of this.vars.values()) {
      if (s.write) yield s.write.ls;
      for (const r of s.reads.values()) yield r.ls;
    }
  }

  /** For each lockset: if it has `cond`, add `elem` (rules 2-7). */
  private rule(cond: string, elem: string): void {
    for (const ls of this.locksets()) {
      this.n.lockUpdates++;
      if (ls.has(cond)) ls.add(elem);
    }
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
    this.rule(`L:${l}`, `T:${t}`); // rule 4
  }

  release(t: number, l: number): void {
    this.rule(`T:${t}`, `L:${l}`); // rule 5
  }

  volatileRead(t: number, v: number): void {
    this.rule(`V:${v}`, `T:${t}`); // rule 2
  }

  volatileWrite(t: number, v: number): void {
    this.rule(`T:${t}`, `V:${v}`); // rule 3
  }

  /** ECMA-262 atomic write (the variant of rule 3 that replaces): v ∈ LS iff t ∈ LS. */
  atomicWrite(t: number, v: number): void {
    for (const ls of this.locksets()) {
      if (ls.has(`T:${t}`)) ls.add(`V:${v}`);
      else ls.delete(`V:${v}`);
    }
  }

  fork(t: number, u: number): void {
    this.rule(`T:${t}`, `T:${u}`); // rule 6
  }

  join(t: number, u: number): void {
    this.rule(`T:${u}`, `T:${t}`); // rule 7
  }

  /** Rule 9, with R checked as reads and W as writes. */
  commit(t: number, pool: Int32Array, off: number, loc: number, ev: number): void {
    const nr = pool[off];
    const vars = Array.from(pool.subarray(off + 2, off + 2 + nr + pool[off + 1]));
    const elems = vars.map((y) => `D:${y}`);
    for (const ls of this.locksets()) if (elems.some((d) => ls.has(d))) ls.add(`T:${t}`);
    vars.forEach((y, j) => {
      this.access(t, y, { index: ev, thread: t, write: j >= nr, xact: true, atomic: false, loc }, -1);
    });
    for (const ls of this.locksets()) if (ls.has(`T:${t}`)) for (const d of elems) ls.add(d);
  }

  /** Rule 8: the locksets of o's variables become empty. */
  alloc(_t: number, o: number): void {
    const s = this.ctx.symbols;
    if (o >= s.objectFirstVariable.length) return;
    for (let x = s.objectFirstVariable[o]; x >= 0; x = s.variableNextInObject[x]) this.vars.delete(x);
  }

  /** The lockset of x's last write, as sorted element names (for tests of Figure 6). */
  writeLockset(x: number): string[] {
    const w = this.vars.get(x)?.write;
    return w ? [...w.ls].map((e) => this.elementName(e)).sort() : [];
  }

  /** Checks and records an access; `range` is its atomic location (ard/awd) or -1. */
  private access(t: number, x: number, ref: AccessRef, range: number): void {
    let s = this.vars.get(x);
    if (s === undefined) {
      s = { write: null, reads: new Map() };
      this.vars.set(x, s);
    }
    const prev = ref.write ? [s.write, ...s.reads.values()] : [s.write];
    for (const p of prev) {
      if (p === null || (range >= 0 && p.range === range)) continue;
      this.n.checks++;
      // Rule 1 (rule 9 inside a commit): race iff LS ≠ ∅ and t ∉ LS (and TL ∉ LS for a transactional access).
      if (p.ls.size > 0 && !p.ls.has(`T:${t}`) && !(ref.xact && p.ls.has(TL))) {
        this.n.races++;
        const names = this.ctx.symbols.threads;
        this.ctx.sink.race({
          variable: x,
          current: ref,
          previous: p.ref,
          detail: `Figure 5: ${names.name(t)} ∉ LS = {${[...p.ls].map((e) => this.elementName(e)).join(', ')}}`,
          lockset: [...p.ls].map((e) => this.elementName(e)),
        });
        break;
      }
    }
    const ls: Lockset = new Set([`T:${t}`]);
    if (ref.xact) ls.add(TL);
    if (ref.write) {
      s.write = { ls, ref, range };
      s.reads.clear();
    } else s.reads.set(t, { ls, ref, range });
  }

  private elementName(e: string): string {
    if (e === TL) return TL;
    const id = Number(e.slice(2));
    const s = this.ctx.symbols;
    switch (e[0]) {
      case 'T':
        return s.threads.name(id);
      case 'L':
        return s.locks.name(id);
      case 'V':
        return `volatile ${s.volatiles.name(id)}`;
      default:
        return `var ${s.variables.name(id)}`;
    }
  }

  stats(): Record<string, number> {
    return { ...this.n };
  }
}
