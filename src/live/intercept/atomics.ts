/**
 * **Atomics.** An atomic operation is a data access with the ATOMIC flag (two atomic accesses of the same range
 * never race; of overlapping unequal ranges they do) and a synchronization cell. Lock order: the word's check lock,
 * then the list lock; under both the check runs, the operation executes, the access is recorded (at the list's
 * length before its own cell: the access is before its release half) and its cell is appended, so list order
 * is the operations' order (a later atomic read really read from the earlier write). `compareExchange` decides
 * under the locks whether it will write (a failed one only reads). `wait`/`waitAsync`/`notify` on one location are
 * ordered through the waiter list's critical section (ECMA-262 §25.4.3.14–16), modelled as a lock of the location
 * (`Tag.WaiterList`): a wait enters it (and reads the value) before sleeping and again after it wakes, a notify
 * enters it while waking waiters, so notify → woken wait is an edge. A wait that returned `'not-equal'` is also an
 * atomic read at its return: that may give an extra edge (never a false alarm).
 */

import { toStringTag } from '../../hooks/views.js';
import { SyncKind } from '../../model/sync.js';
import type { SyncAtomics } from '../../sync/observer.js';
import type { Callee, Context } from '../context.js';
import { appendCell, lockPage, rawAtomics, STAT, Tag, unlockPage } from '../memory/state.js';
import { collectList } from '../shadow/eager.js';
import { Access, packA } from '../shadow/goldilocks.js';
import { lockOf, PAGE_INTS } from '../shadow/table.js';
import { runtimeFramesBelow } from '../sites.js';
import { type AnyFn, type Fn, integer, originals, replaceFunction } from './common.js';

/**
 * The integer TypedArray constructors (ECMA-262 §25.4.3.1 ValidateIntegerTypedArray) by name, as they were before
 * user code: a scratch element is made from the intrinsic constructor of the view's element type, never from
 * `ta.constructor`, which may be a subclass taking other arguments (`super(buffer, offset, 4)`, as @zenfs/core's
 * structs do) or running user code.
 */
const INTEGER_ARRAYS: Readonly<Record<string, new (length: number) => Int32Array | BigInt64Array>> = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  BigInt64Array,
  BigUint64Array,
} as never;

const READ = (SyncKind.AtomicRead << 16) | 0;
const RMW = (SyncKind.AtomicRmw << 16) | Access.WRITE;
const STORE = (SyncKind.AtomicWrite << 16) | Access.WRITE;
const readKind = () => READ;
const rmwKind = () => RMW;
const storeKind = () => STORE;

/** The view kinds `Atomics.wait`, `waitAsync` and `notify` take (ECMA-262 §25.4.3.3 ValidateIntegerTypedArray, waitable). */
const WAITABLE = new Set(['Int32Array', 'BigInt64Array']);

/** The checked operations of one thread, each given the caller's site (see the file header). */
function checkedAtomics(ctx: Context) {
  const { s, shadow, t } = ctx;
  /** One element of each element type (by TypedArray name), to convert `expected` as the operation converts it. */
  const scratch = new Map<string, Int32Array | BigInt64Array>();
  /**
   * The view of the last operation, its byte offset and its buffer's id: fixed for a view over shared memory (a
   * SharedArrayBuffer never shrinks, so its views never go out of bounds: ECMA-262 IsTypedArrayOutOfBounds), read
   * by two native getters and a map lookup per operation otherwise (a program's operations are mostly on one state
   * array).
   */
  let lastView: Int32Array | undefined;
  let lastStart = 0;
  let lastId = 0;
  /**
   * Runs atomic operation `op` on element `x` of shared `ta` (see the file header) at `site`. `decide` (under both
   * locks) returns the access's flags and cell kind; `op` runs under both locks and may append more cells.
   * `lockCell`, when not 0, is the kind of a lock's cell (`SyncKind.Release` or `Acquire`) of lock (`lockA`,
   * `lockB`) appended in the same section: a release first, before the check (the release before the operation
   * that lets others go on, `../../sync/observer.ts`); an acquire last, after the access's cell, and only when the
   * operation returned `taken` (a compare-exchange that took the lock: it returned its expected value).
   * `excused`: a second run after an excused race (`ctx.race` returned true) that `stopOnRace` kept from happening
   * (a release cell is not appended again).
   */
  const atomic = (
    ta: Int32Array,
    x: number,
    decide: () => number,
    op: () => unknown,
    fn: Callee,
    name: string,
    site: number,
    excused = false,
    lockCell = 0,
    lockA = 0,
    lockB = 0,
    taken: unknown = undefined,
  ): unknown => {
    // the main thread alone (`../alone.ts`): no check, record or cell (counted as `alone`, not `atomics`); a lock's
    // operation of `goldilocks/sync` keeps them (left as it was: its cells are the lock's acquire and release)
    if (lockCell === 0 && ctx.alone()) return op();
    shadow.counts[STAT.atomics]++;
    const bpe = ta.BYTES_PER_ELEMENT;
    if (ta !== lastView) {
      lastStart = ta.byteOffset;
      lastId = ctx.idOf(ta.buffer as SharedArrayBuffer);
      lastView = ta;
    }
    const off = lastStart + x * bpe;
    const id = lastId;
    const w = Math.floor(off / 8);
    const mask = ((1 << bpe) - 1) << (off - w * 8);
    const word = ctx.baseOf(id) + w;
    let conflict: ReturnType<typeof shadow.find>;
    let flags = 0;
    let result: unknown;
    if (lockOf(word) + PAGE_INTS > s.heap.length) s.refresh();
    let collect = false;
    lockPage(s, lockOf(word)); // one WebAssembly compare-exchange when free, as a range check's
    try {
      shadow.splitPage(lockOf(word));
      conflict = ctx.listLocked(() => {
        if (lockCell === SyncKind.Release && !excused) appendCell(s, lockCell, t, lockA, lockB);
        const kindFlags = decide();
        flags = (kindFlags & 0xffff) | Access.ATOMIC;
        const c = shadow.find(word, mask, flags);
        // --record: the data access, attempted (like Shadow.access), at the list's length before its cells
        if (shadow.onAccess !== undefined) shadow.onAccess(word, mask | flags, site);
        if (!(c && ctx.stopOnRace) || excused) {
          result = op();
          // recorded before its cell: the access precedes its own release half (the cell), so a later read of
          // this write (ordered after the cell) is ordered after the access too
          shadow.record(word, mask, flags, site);
          appendCell(s, kindFlags >> 16, t, packA(Tag.Atomic, id), off * 4 + Math.log2(bpe));
          if (lockCell === SyncKind.Acquire && result === taken) appendCell(s, lockCell, t, lockA, lockB);
        }
        // the list's collection (§5.4) waits until the word is unlocked: another thread's operation on the word
        // (a Mutex's, often) would wait for all of it
        collect = s.gcDue;
        s.gcDue = false;
        return c;
      });
    } finally {
      unlockPage(s, lockOf(word));
    }
    if (collect) collectList(s, shadow);
    if (
      conflict &&
      !excused &&
      ctx.race(conflict, id, off, bpe, flags, site, `Atomics.${name}`, fn) &&
      ctx.stopOnRace
    )
      // excused: the operation happens after all
      return atomic(ta, x, decide, op, fn, name, site, true, lockCell, lockA, lockB, taken);
    return result;
  };
  /** The element index `i` of shared `ta` as ValidateAtomicAccess computes it, or -1 to leave it to the original. */
  const element = (ta: unknown, i: unknown): number => {
    if (!ctx.shared(ta)) return -1;
    const x = integer(i);
    return x >= 0 && x < (ta as Int32Array).length ? x : -1;
  };
  /**
   * `Atomics.compareExchange` of element `x` of shared `ta`, a write only when it will exchange (decided under the
   * locks); with a lock's cell in the same section as `atomic` appends it (`lockCell`, `lockA`, `lockB`).
   */
  const compareExchange = (
    ta: Int32Array,
    x: number,
    expected: unknown,
    replacement: unknown,
    fn: Callee,
    site: () => number,
    lockCell = 0,
    lockA = 0,
    lockB = 0,
  ): unknown => {
    const tag = toStringTag.call(ta) as string;
    let sc = scratch.get(tag);
    if (!sc) {
      const Intrinsic = INTEGER_ARRAYS[tag];
      if (Intrinsic === undefined)
        // not an integer TypedArray: the operation throws its TypeError
        return rawAtomics.compareExchange(ta, x, expected as number, replacement as number);
      sc = new Intrinsic(1);
      scratch.set(tag, sc);
    }
    const conv = sc as unknown as unknown[];
    conv[0] = expected;
    return atomic(
      ta,
      x,
      () => (rawAtomics.load(ta, x) === conv[0] ? RMW : READ),
      () => rawAtomics.compareExchange(ta, x, conv[0] as number, replacement as number),
      fn,
      'compareExchange',
      site(),
      false,
      lockCell,
      lockA,
      lockB,
      conv[0],
    );
  };
  const waiters = (ta: Int32Array, x: number): [number, number] => [
    packA(Tag.WaiterList, ctx.idOf(ta.buffer as SharedArrayBuffer)),
    ta.byteOffset + x * ta.BYTES_PER_ELEMENT,
  ];
  /** Leaving the wait: enter and leave the waiter list's critical section (and read again if not-equal). */
  const afterWait = (ta: Int32Array, x: number, result: unknown): void => {
    if (ctx.alone()) return;
    const [a, b] = waiters(ta, x);
    ctx.listLocked(() => {
      appendCell(s, SyncKind.Acquire, t, a, b);
      if (result === 'not-equal') {
        const off = ta.byteOffset + x * ta.BYTES_PER_ELEMENT;
        appendCell(
          s,
          SyncKind.AtomicRead,
          t,
          packA(Tag.Atomic, ctx.idOf(ta.buffer as SharedArrayBuffer)),
          off * 4 + Math.log2(ta.BYTES_PER_ELEMENT),
        );
      }
      appendCell(s, SyncKind.Release, t, a, b);
    });
  };
  const beforeWait = (ta: Int32Array, x: number, fn: Callee, name: string, site: number): void => {
    if (ctx.alone()) return; // no check and no cell (`../alone.ts`): not through `atomic`, whose `op` appends here
    const [a, b] = waiters(ta, x);
    atomic(
      ta,
      x,
      readKind,
      () => {
        appendCell(s, SyncKind.Acquire, t, a, b);
        appendCell(s, SyncKind.Release, t, a, b);
      },
      fn,
      name,
      site,
    );
  };
  /** `Atomics.wait` of element `x` of shared waitable `ta`. */
  const wait = (
    ta: Int32Array,
    x: number,
    value: unknown,
    timeout: number | undefined,
    fn: Callee,
    site: number,
  ) => {
    beforeWait(ta, x, fn, 'wait', site);
    const r = rawAtomics.wait(ta, x, value as number, timeout);
    afterWait(ta, x, r);
    return r;
  };
  /** `Atomics.notify` of element `x` of shared waitable `ta`: inside the waiter list's critical section. */
  const notify = (ta: Int32Array, x: number, count: number | undefined): number => {
    if (ctx.alone()) return rawAtomics.notify(ta, x, count); // no waiter to wake, and no cell (`../alone.ts`)
    const [a, b] = waiters(ta, x);
    return ctx.listLocked(() => {
      appendCell(s, SyncKind.Acquire, t, a, b);
      const n = rawAtomics.notify(ta, x, count);
      appendCell(s, SyncKind.Release, t, a, b);
      return n;
    });
  };
  return { atomic, element, compareExchange, beforeWait, afterWait, wait, notify };
}

/** Whether `ta` is a view `Atomics.wait`/`notify` take: else the original throws its TypeError. */
const waitable = (ta: unknown): boolean => WAITABLE.has(toStringTag.call(ta) as string);

/**
 * `e`, thrown by the built-in `Atomics.name` (a TypeError or RangeError raised in the built-in itself: the first frame
 * of its stack is a built-in's), with the stack plain node gives it: the built-in's frame, then the program's frames
 * below `fn`, not the runtime's. Any other value is returned as it is.
 */
function asBuiltin(e: unknown, fn: Callee, name: string): unknown {
  if (!(e instanceof TypeError || e instanceof RangeError)) return e;
  const stack = String(e.stack ?? '');
  const at = stack.indexOf('\n    at ');
  if (at < 0 || !/^\n {4}at [\w$.]+ \(<anonymous>\)(\n|$)/.test(stack.slice(at))) return e;
  const skip = runtimeFramesBelow(fn); // the hooks' dispatch of a rewritten call
  Error.captureStackTrace(e, fn);
  const frames = String(e.stack ?? '')
    .split('\n    at ')
    .slice(1 + skip);
  e.stack = [`${stack.slice(0, at)}\n    at Atomics.${name} (<anonymous>)`, ...frames].join('\n    at ');
  return e;
}

export function patchAtomics(ctx: Context): void {
  const ops = checkedAtomics(ctx);
  const atomics = Atomics as unknown as Record<string, Fn>;
  // each replacement takes its original's name and length (`replaceFunction`), and fixed parameters: a missing
  // argument is undefined to the built-in either way (ECMA-262 §25.4.3–§25.4.14 read theirs as parameters), and a
  // rest parameter and a spread call allocated at every operation
  const rmw = (name: keyof typeof rawAtomics, kind: () => number) => {
    const orig = rawAtomics[name] as unknown as (ta: unknown, i: unknown, v: unknown) => unknown;
    const fn = (ta: Int32Array, i: unknown, v?: unknown): unknown => {
      try {
        const x = ops.element(ta, i);
        // the main thread alone (`../alone.ts`): no site, no check (`atomic` would skip it after finding the site)
        if (x < 0 || ctx.alone()) return orig(ta, i, v);
        return ops.atomic(ta, x, kind, () => orig(ta, x, v), fn, name, ctx.callerSite(fn));
      } catch (e) {
        throw asBuiltin(e, fn, name);
      }
    };
    replaceFunction(Atomics, name, fn as AnyFn);
  };
  rmw('load', readKind);
  rmw('store', storeKind);
  for (const name of ['add', 'sub', 'and', 'or', 'xor', 'exchange'] as const) rmw(name, rmwKind);
  const cas = (ta: Int32Array, i: unknown, expected: unknown, replacement: unknown): unknown => {
    try {
      const x = ops.element(ta, i);
      if (x < 0)
        return rawAtomics.compareExchange(ta, i as number, expected as number, replacement as number);
      return ops.compareExchange(ta, x, expected, replacement, cas, () => ctx.callerSite(cas));
    } catch (e) {
      throw asBuiltin(e, cas, 'compareExchange');
    }
  };
  replaceFunction(Atomics, 'compareExchange', cas as AnyFn);
  const wait = (ta: Int32Array, i: unknown, value: unknown, timeout?: number): unknown => {
    try {
      const x = waitable(ta) ? ops.element(ta, i) : -1;
      if (x < 0) return rawAtomics.wait(ta, i as number, value as number, timeout);
      return ops.wait(ta, x, value, timeout, wait, ctx.callerSite(wait));
    } catch (e) {
      throw asBuiltin(e, wait, 'wait');
    }
  };
  replaceFunction(Atomics, 'wait', wait as AnyFn);
  if (rawAtomics.waitAsync) {
    const waitAsync = (ta: Int32Array, i: unknown, value: unknown, timeout?: number): unknown => {
      const orig = rawAtomics.waitAsync as unknown as (...a: unknown[]) => { async: boolean; value: unknown };
      try {
        const x = waitable(ta) ? ops.element(ta, i) : -1;
        if (x < 0) return orig(ta, i, value, timeout);
        ops.beforeWait(ta, x, waitAsync, 'waitAsync', ctx.callerSite(waitAsync));
        const r = orig(ta, x, value, timeout);
        if (r.async) {
          r.value = (r.value as Promise<unknown>).then((v) => {
            ops.afterWait(ta, x, v);
            return v;
          });
        } else ops.afterWait(ta, x, r.value);
        return r;
      } catch (e) {
        throw asBuiltin(e, waitAsync, 'waitAsync');
      }
    };
    replaceFunction(Atomics, 'waitAsync', waitAsync as AnyFn);
  }
  const notify = (ta: Int32Array, i: unknown, count?: number): unknown => {
    try {
      const x = waitable(ta) ? ops.element(ta, i) : -1;
      if (x < 0) return rawAtomics.notify(ta, i as number, count);
      return ops.notify(ta, x, count);
    } catch (e) {
      throw asBuiltin(e, notify, 'notify');
    }
  };
  replaceFunction(Atomics, 'notify', notify as AnyFn);
  // each replacement, on a first argument that is not a view over shared memory, calls its original (`element`)
  for (const name of Object.keys(rawAtomics) as (keyof typeof rawAtomics)[])
    if (atomics[name] !== rawAtomics[name])
      originals.set(atomics[name] as AnyFn, { original: rawAtomics[name] as AnyFn, argument: 0 });
}

/** The checked operations of {@link libraryAtomics}. */
export interface LibraryAtomics extends SyncAtomics {
  /**
   * `compareExchange(ta, i, expected, replacement, site)` and, in the same list-lock section, the cell `lockCell`
   * (`SyncKind.Release`: before the operation's check and cell; `SyncKind.Acquire`: after its cell, when it
   * exchanged) of the lock whose cell words are `lockA` (a `packA` of `Tag.Named`), `lockB` (its byte offset).
   * `fn` is the function the library called (its caller names the access; a race's stack starts below it).
   * @returns the element's old value, as `compareExchange`.
   * @throws DataRaceException (mode `throw`) before the operation when it races; a release cell is appended then.
   */
  compareExchangeLocking: (
    ta: Int32Array,
    i: number,
    expected: number,
    replacement: number,
    site: number,
    lockCell: number,
    lockA: number,
    lockB: number,
    fn: Callee,
  ) => number;
}

/**
 * The checked operations `goldilocks/sync` uses on its primitives' words (`SyncObserver.atomics`,
 * `../../sync/observer.ts`): the same checks and cells as the patched `Atomics`, each access named by its library
 * call site `site` (a `Site` of `../../sync/sites.ts`), whose location is found from a stack the first time it
 * runs in this thread and kept, rather than from a stack per operation.
 */
export function libraryAtomics(ctx: Context): LibraryAtomics {
  const ops = checkedAtomics(ctx);
  const sites: number[] = [];
  const siteOf = (site: number, fn: Callee): number => {
    let g = sites[site];
    if (g === undefined) {
      g = ctx.callerSite(fn);
      sites[site] = g;
    }
    return g;
  };
  const rmw = (name: 'store' | 'add' | 'sub' | 'exchange', kind: () => number) => {
    const orig = rawAtomics[name] as (ta: Int32Array, i: number, v: number) => number;
    const fn = (ta: Int32Array, i: number, v: number, site: number): number => {
      return ops.atomic(ta, i, kind, () => orig(ta, i, v), fn, name, siteOf(site, fn)) as number;
    };
    return fn;
  };
  const load = (ta: Int32Array, i: number, site: number): number => {
    return ops.atomic(
      ta,
      i,
      readKind,
      () => rawAtomics.load(ta, i),
      load,
      'load',
      siteOf(site, load),
    ) as number;
  };
  const compareExchangeLocking: LibraryAtomics['compareExchangeLocking'] = (
    ta,
    i,
    expected,
    replacement,
    site,
    lockCell,
    lockA,
    lockB,
    fn,
  ) =>
    ops.compareExchange(
      ta,
      i,
      expected,
      replacement,
      fn,
      () => siteOf(site, fn),
      lockCell,
      lockA,
      lockB,
    ) as number;
  /** The plain compare-exchange: {@link compareExchangeLocking} without a lock's cell. */
  const compareExchange = (ta: Int32Array, i: number, expected: number, replacement: number, site: number) =>
    compareExchangeLocking(ta, i, expected, replacement, site, 0, 0, 0, compareExchange);
  const wait = (ta: Int32Array, i: number, value: number, timeout: number, site: number) => {
    return ops.wait(ta, i, value, timeout, wait, siteOf(site, wait)) as 'ok' | 'not-equal' | 'timed-out';
  };
  const notify = (ta: Int32Array, i: number, count: number): number => {
    return ops.notify(ta, i, count);
  };
  return {
    load,
    store: rmw('store', storeKind),
    add: rmw('add', rmwKind),
    sub: rmw('sub', rmwKind),
    exchange: rmw('exchange', rmwKind),
    compareExchange,
    compareExchangeLocking,
    wait,
    notify,
  };
}
