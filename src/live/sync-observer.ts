/**
 * The goldilocks/sync library's reports (`../sync/observer.ts`) as synchronization cells: a lock's acquire and
 * release (`Tag.Named`: the lock is named by its buffer and byte offset; the locks this thread holds are kept in
 * `Shadow.held`, innermost last), a volatile's publish (a write) and subscribe (a read), `Tag.Volatile`. Each
 * primitive is named once per thread for race reports (`./lock-names.ts`).
 */

import { SyncKind } from '../model/sync.js';
import { type SyncRef, setSyncObserver } from '../sync/observer.js';
import type { Context } from './context.js';
import { libraryAtomics } from './intercept/atomics.js';
import type { LockNames } from './lock-names.js';
import { appendCell, Tag } from './memory/state.js';
import { packA } from './shadow/goldilocks.js';

/**
 * Appends the cell `kind` of `ref` (tagged `tag`) for the thread of `ctx`, the primitive named in `names` for
 * reports; returns its `a` word. A release or a publish comes right before the atomic operation that lets other
 * threads go on (the primitive's docstring): with `defer`, the list's collection (§5.4) that its cell made due waits
 * for that operation, whose cell makes it due again (`appendCell`; the Atomics interceptor collects after it), so
 * that no thread waiting for the lock waits for the collection too.
 */
function syncCell(
  ctx: Context,
  names: LockNames,
  kind: number,
  tag: number,
  ref: SyncRef,
  defer: boolean,
): number {
  const id = ctx.idOf(ref.buffer);
  names.note(ref, id);
  const a = packA(tag, id);
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
  setSyncObserver({
    atomics: libraryAtomics(ctx),
    acquire(ref) {
      held.push(syncCell(ctx, names, SyncKind.Acquire, Tag.Named, ref, false), ref.byteOffset);
    },
    release(ref) {
      const a = syncCell(ctx, names, SyncKind.Release, Tag.Named, ref, true);
      for (let i = held.length - 2; i >= 0; i -= 2) {
        if (held[i] === a && held[i + 1] === ref.byteOffset) {
          held.splice(i, 2);
          break;
        }
      }
    },
    publish(ref) {
      syncCell(ctx, names, SyncKind.Publish, Tag.Volatile, ref, true);
    },
    subscribe(ref) {
      syncCell(ctx, names, SyncKind.Subscribe, Tag.Volatile, ref, false);
    },
  });
}
