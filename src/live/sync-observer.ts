/**
 * The goldilocks/sync library's reports (`../sync/observer.ts`) as synchronization cells: a lock's acquire and
 * release (`Tag.Named`: the lock is named by its buffer and byte offset; the locks this thread holds are kept in
 * `Shadow.held`, innermost last), a volatile's publish (a write) and subscribe (a read), `Tag.Volatile`. Each
 * primitive is named once per thread for race reports (`./lock-names.ts`). A Mutex's compare-exchange that takes
 * the lock and its acquire cell (its release cell and the compare-exchange that may give it up) are appended in
 * one list-lock section (`acquireByCompareExchange`, `releaseByCompareExchange`).
 */

import { SyncKind } from '../model/sync.js';
import { type LockCompareExchange, type SyncRef, setSyncObserver } from '../sync/observer.js';
import type { Context } from './context.js';
import { libraryAtomics } from './intercept/atomics.js';
import type { LockNames } from './lock-names.js';
import { appendCell, Tag } from './memory/state.js';
import { packA } from './shadow/goldilocks.js';

/**
 * The `a` word (tagged `tag`) of the cells of `ref`, the primitive named in `names` for reports the first time;
 * its buffer's id kept in `known`: one lookup per report, not a buffer id lookup and a name's key string.
 */
function cellA(
  ctx: Context,
  names: LockNames,
  known: WeakMap<SyncRef, number>,
  tag: number,
  ref: SyncRef,
): number {
  let id = known.get(ref);
  if (id === undefined) {
    id = ctx.idOf(ref.buffer);
    names.note(ref, id);
    known.set(ref, id);
  }
  return packA(tag, id);
}

/**
 * Appends the cell `kind` of `ref` (tagged `tag`) for the thread of `ctx`, the primitive named in `names` for
 * reports (`cellA`, `known`); returns its `a` word. A release or a publish comes right before the atomic operation that lets other
 * threads go on (the primitive's docstring): with `defer`, the list's collection (§5.4) that its cell made due waits
 * for that operation, whose cell makes it due again (`appendCell`; the Atomics interceptor collects after it), so
 * that no thread waiting for the lock waits for the collection too.
 */
function syncCell(
  ctx: Context,
  names: LockNames,
  known: WeakMap<SyncRef, number>,
  kind: number,
  tag: number,
  ref: SyncRef,
  defer: boolean,
): number {
  const a = cellA(ctx, names, known, tag, ref);
  const s = ctx.s;
  ctx.listLocked(() => {
    appendCell(s, kind, ctx.t, a, ref.byteOffset);
    if (defer) s.gcDue = false;
  });
  return a;
}

/**
 * Installs the sync library's observer for the thread of `ctx`; its primitives are named in `names`. Their atomic
 * operations are the runtime's checked ones, each named by its library call site without a stack per operation
 * (`libraryAtomics`).
 */
export function observeSync(ctx: Context, names: LockNames): void {
  const held = ctx.shadow.held;
  const atomics = libraryAtomics(ctx);
  /** The buffer id of each ref reported in this thread (`cellA`). */
  const known = new WeakMap<SyncRef, number>();
  /** Drops lock (`a`, `b`) from the held locks (its innermost entry). */
  const drop = (a: number, b: number): void => {
    for (let i = held.length - 2; i >= 0; i -= 2) {
      if (held[i] === a && held[i + 1] === b) {
        held.splice(i, 2);
        break;
      }
    }
  };
  /**
   * The observer's compare-exchange with the cell `kind` (`SyncKind.Acquire` or `Release`) of its lock in one
   * list-lock section (`LibraryAtomics.compareExchangeLocking`); the held locks updated as by `acquire`/`release`.
   */
  const byCompareExchange = (kind: number): LockCompareExchange => {
    const f: LockCompareExchange = (ref, ta, index, expected, replacement, site) => {
      const a = cellA(ctx, names, known, Tag.Named, ref);
      const b = ref.byteOffset;
      // a release leaves the held locks before the operation's access is recorded (its alock: a lock still held)
      if (kind === SyncKind.Release) drop(a, b);
      const c = atomics.compareExchangeLocking(ta, index, expected, replacement, site, kind, a, b, f);
      if (kind === SyncKind.Acquire && c === expected) held.push(a, b);
      return c;
    };
    return f;
  };
  setSyncObserver({
    atomics,
    acquire(ref) {
      held.push(syncCell(ctx, names, known, SyncKind.Acquire, Tag.Named, ref, false), ref.byteOffset);
    },
    release(ref) {
      drop(syncCell(ctx, names, known, SyncKind.Release, Tag.Named, ref, true), ref.byteOffset);
    },
    acquireByCompareExchange: byCompareExchange(SyncKind.Acquire),
    releaseByCompareExchange: byCompareExchange(SyncKind.Release),
    publish(ref) {
      syncCell(ctx, names, known, SyncKind.Publish, Tag.Volatile, ref, true);
    },
    subscribe(ref) {
      syncCell(ctx, names, known, SyncKind.Subscribe, Tag.Volatile, ref, false);
    },
  });
}
