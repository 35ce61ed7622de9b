import { growAtLeast } from '../../model/interner.js';
import type { Symbols } from '../../model/symbols.js';
import type { RuleLockset } from './rules.js';

/**
 * Lockset elements (Figure 5: Tid ∪ Addr×Volatile ∪ Addr×Data, plus locks as (o, l)) encoded as one int:
 * `id * 4 + namespace`, namespace 0 thread, 1 lock, 2 volatile, 3 data variable. TL is kept as the Info's
 * `xact` flag (Theorem 1, part 2), not as an element.
 */
export type Lockset = Int32Array;

/** Entries of each table here before it first grows. */
const INITIAL_CAPACITY = 64;

/**
 * Hash-consed explicit locksets (sorted element codes), for Infos whose lockset has been evaluated up to a
 * later position (§5.4 partially-eager evaluation, and the walk cache of the lazy checks). Reference-counted:
 * an id is freed (and reused) when no Info holds it, so the table does not grow with the trace.
 */
export class LocksetTable {
  private readonly ids = new Map<string, number>();
  private sets: (Lockset | null)[] = [];
  private keys: string[] = [];
  private refs: Int32Array = new Int32Array(0);
  private readonly free: number[] = [];

  /**
   * The reference counts allocated as they grow, so that the field is written twice before any code runs (V8 then
   * compiles no code that relies on its first value: docs/ARCHITECTURE.md, "Tables that grow").
   */
  constructor() {
    this.refs = growAtLeast(this.refs, INITIAL_CAPACITY);
  }

  /** Live (referenced) locksets. */
  get size(): number {
    return this.sets.length - this.free.length;
  }

  /** The id of `codes` (sorted) with one more reference. */
  retain(codes: Lockset): number {
    const key = codes.join(',');
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.free.pop() ?? this.sets.length;
      if (id >= this.refs.length) this.refs = growAtLeast(this.refs, id + 1);
      this.sets[id] = codes;
      this.keys[id] = key;
      this.ids.set(key, id);
    }
    this.refs[id]++;
    return id;
  }

  /** Adds one reference to a live `id`. */
  share(id: number): void {
    this.refs[id]++;
  }

  /** Drops one reference to `id`; frees it at zero. */
  release(id: number): void {
    if (--this.refs[id] === 0) {
      this.ids.delete(this.keys[id]);
      this.sets[id] = null;
      this.free.push(id);
    }
  }

  get(id: number): Lockset {
    return this.sets[id] as Lockset;
  }
}

/**
 * The lockset being computed by a walk (the offline {@link RuleLockset} of the Figure 5 rules, `./rules.ts`):
 * membership by generation stamps per namespace (O(1) add and test, O(1) reset), plus the list of members.
 */
export class WorkingLockset implements RuleLockset {
  private stamp = 0;
  private t: Int32Array = new Int32Array(0);
  private l: Int32Array = new Int32Array(0);
  private v: Int32Array = new Int32Array(0);
  private d: Int32Array = new Int32Array(0);
  private members: Int32Array = new Int32Array(0);
  private count = 0;

  /**
   * The stamp arrays and the members allocated as they grow, so that each field is written twice before any code
   * runs (V8 then compiles no code that relies on its first value: docs/ARCHITECTURE.md, "Tables that grow").
   */
  constructor() {
    this.t = growAtLeast(this.t, INITIAL_CAPACITY);
    this.l = growAtLeast(this.l, INITIAL_CAPACITY);
    this.v = growAtLeast(this.v, INITIAL_CAPACITY);
    this.d = growAtLeast(this.d, INITIAL_CAPACITY);
    this.members = growAtLeast(this.members, INITIAL_CAPACITY);
  }

  /** Empties the set; sizes the stamp arrays for the symbols interned so far. */
  reset(s: Symbols): void {
    if (this.t.length < s.threads.size) this.t = growAtLeast(this.t, s.threads.size);
    if (this.l.length < s.locks.size) this.l = growAtLeast(this.l, s.locks.size);
    if (this.v.length < s.volatiles.size) this.v = growAtLeast(this.v, s.volatiles.size);
    if (this.d.length < s.variables.size) this.d = growAtLeast(this.d, s.variables.size);
    this.count = 0;
    if (++this.stamp === 0x7fffffff) {
      this.stamp = 1;
      for (const a of [this.t, this.l, this.v, this.d]) a.fill(0);
    }
  }

  hasThread(x: number): boolean {
    return this.t[x] === this.stamp;
  }
  hasLock(x: number): boolean {
    return this.l[x] === this.stamp;
  }
  hasVolatile(x: number): boolean {
    return this.v[x] === this.stamp;
  }
  hasData(x: number): boolean {
    return this.d[x] === this.stamp;
  }
  addThread(x: number): void {
    if (this.t[x] !== this.stamp) {
      this.t[x] = this.stamp;
      this.push(x * 4);
    }
  }
  addLock(x: number): void {
    if (this.l[x] !== this.stamp) {
      this.l[x] = this.stamp;
      this.push(x * 4 + 1);
    }
  }
  addVolatile(x: number): void {
    if (this.v[x] !== this.stamp) {
      this.v[x] = this.stamp;
      this.push(x * 4 + 2);
    }
  }
  /** Removes volatile x (an ECMA-262 atomic write by a thread outside the lockset). O(|LS|). */
  removeVolatile(x: number): void {
    if (this.v[x] !== this.stamp) return;
    this.v[x] = 0;
    const code = x * 4 + 2;
    for (let i = 0; i < this.count; i++) {
      if (this.members[i] === code) {
        this.members[i] = this.members[--this.count];
        return;
      }
    }
  }
  addData(x: number): void {
    if (this.d[x] !== this.stamp) {
      this.d[x] = this.stamp;
      this.push(x * 4 + 3);
    }
  }

  /** Adds every element of an explicit lockset. */
  load(codes: Lockset): void {
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i];
      const id = c >> 2;
      switch (c & 3) {
        case 0:
          this.addThread(id);
          break;
        case 1:
          this.addLock(id);
          break;
        case 2:
          this.addVolatile(id);
          break;
        default:
          this.addData(id);
      }
    }
  }

  /** The members as sorted codes (a fresh array). */
  codes(): Lockset {
    return this.members.slice(0, this.count).sort();
  }

  /** The members as names: threads and locks by name, `volatile v`, `var x`. */
  names(s: Symbols): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count; i++) {
      const c = this.members[i];
      const id = c >> 2;
      switch (c & 3) {
        case 0:
          out.push(s.threads.name(id));
          break;
        case 1:
          out.push(s.locks.name(id));
          break;
        case 2:
          out.push(`volatile ${s.volatiles.name(id)}`);
          break;
        default:
          out.push(`var ${s.variables.name(id)}`);
      }
    }
    return out;
  }

  private push(code: number): void {
    if (this.count === this.members.length) this.members = growAtLeast(this.members, this.count * 2);
    this.members[this.count++] = code;
  }
}
