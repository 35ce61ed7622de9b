/**
 * The live lockset: the {@link RuleLockset} that the live walk (`./goldilocks.ts`) hands to the Figure 5 rules of
 * `../../detectors/goldilocks/rules.ts`. Elements are keys (numbers exact in a double): a thread `t` is `t`, an object
 * of a cell (lock, waiter list, atomic location, message, sync-library volatile) is `a * 2^32 + (b >>> 0)` of its
 * cell's `a`, `b` words (`objectKey` of `./goldilocks.ts`, ≥ 2^50 since `a` has a tag), so one set holds both and the
 * rules' lock and volatile namespaces are the same keys. A data variable of rule 9 (a word a transaction
 * accessed, named by its word's address `x`, see `./table.ts`) is `DATA + x`, between the two.
 */
import type { RuleLockset } from '../../detectors/goldilocks/rules.js';

/** Offset of the data-variable keys: above every thread id (< 2^22), below every object key (≥ 2^50). */
export const DATA = 2 ** 40;

export class LiveLockset implements RuleLockset {
  /** The elements (thread ids and object keys). */
  readonly keys = new Set<number>();
  /** The thread whose entry the walk is waiting for. */
  private target = -1;
  /** Whether {@link target} has entered the lockset: the walk can stop (happens-before, Theorem 1). */
  reached = false;

  /** Makes the lockset `{u}`, for a walk deciding whether u's access happens-before `target`'s. */
  reset(u: number, target: number): void {
    this.keys.clear();
    this.keys.add(u);
    this.target = target;
    this.reached = u === target;
  }

  /** Makes the lockset `keys` (an explicit lockset, §5.4), for a walk waiting for `target` (-1: none). */
  load(keys: Iterable<number>, target: number): void {
    this.keys.clear();
    for (const k of keys) this.keys.add(k);
    this.target = target;
    this.reached = this.keys.has(target);
  }

  hasThread(t: number): boolean {
    return this.keys.has(t);
  }
  addThread(t: number): void {
    this.keys.add(t);
    if (t === this.target) this.reached = true;
  }
  hasLock(l: number): boolean {
    return this.keys.has(l);
  }
  addLock(l: number): void {
    this.keys.add(l);
  }
  hasVolatile(v: number): boolean {
    return this.keys.has(v);
  }
  addVolatile(v: number): void {
    this.keys.add(v);
  }
  removeVolatile(v: number): void {
    this.keys.delete(v);
  }
  hasData(x: number): boolean {
    return this.keys.has(DATA + x);
  }
  addData(x: number): void {
    this.keys.add(DATA + x);
  }
}
