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
import type { Callee, Context } from '../context.js';
import { appendCell, lock, rawAtomics, STAT, Tag, unlock } from '../memory/state.js';
import { Access, lockOf, packA } from '../shadow/goldilocks.js';
import { type AnyFn, type Fn, integer, originals } from './common.js';

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

export function patchAtomics(ctx: Context): void {
  const { s, shadow, t } = ctx;
  /** One element of each element type (by TypedArray name), to convert `expected` as the operation converts it. */
  const scratch = new Map<string, Int32Array | BigInt64Array>();
  /**
   * Runs atomic operation `op` on element `x` of shared `ta` (see the file header). `decide` (under both locks)
   * returns the access's flags and cell kind; `op` runs under both locks and may append more cells. `excused`: a
   * second run after an excused race (`ctx.race` returned true) that `stopOnRace` kept from happening.
   */
  const atomic = (
    ta: Int32Array,
    x: number,
    decide: () => number,
    op: () => unknown,
    fn: Callee,
    name: string,
    excused = false,
  ): unknown => {
    const bpe = ta.BYTES_PER_ELEMENT;
    const off = ta.byteOffset + x * bpe;
    const id = ctx.idOf(ta.buffer as SharedArrayBuffer);
    const w = Math.floor(off / 8);
    const mask = ((1 << bpe) - 1) << (off - w * 8);
    const word = ctx.baseOf(id) + 2 * w;
    const site = ctx.callerSite(fn);
    shadow.counts[STAT.atomics]++;
    let conflict: ReturnType<typeof shadow.find>;
    let flags = 0;
    let result: unknown;
    if (word + 2 > s.heap.length) s.refresh();
    lock(s, s.heap, lockOf(word));
    try {
      shadow.splitPage(lockOf(word));
      conflict = ctx.listLocked(() => {
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
        }
        return c;
      });
    } finally {
      unlock(s.heap, lockOf(word));
    }
    if (
      conflict &&
      !excused &&
      ctx.race(conflict, id, off, bpe, flags, site, `Atomics.${name}`, fn) &&
      ctx.stopOnRace
    )
      return atomic(ta, x, decide, op, fn, name, true); // excused: the operation happens after all
    return result;
  };
  const READ = (SyncKind.AtomicRead << 16) | 0;
  const RMW = (SyncKind.AtomicRmw << 16) | Access.WRITE;
  const STORE = (SyncKind.AtomicWrite << 16) | Access.WRITE;
  /** The element index `i` of shared `ta` as ValidateAtomicAccess computes it, or -1 to leave it to the original. */
  const element = (ta: unknown, i: unknown): number => {
    if (!ctx.shared(ta)) return -1;
    const x = integer(i);
    return x >= 0 && x < (ta as Int32Array).length ? x : -1;
  };
  const atomics = Atomics as unknown as Record<string, Fn>;
  const rmw = (name: keyof typeof rawAtomics, decideFlags: number) => {
    const orig = rawAtomics[name] as unknown as (ta: unknown, i: number, ...v: unknown[]) => unknown;
    const fn = (ta: Int32Array, i: unknown, ...v: unknown[]): unknown => {
      const x = element(ta, i);
      if (x < 0) return orig(ta, i as number, ...v);
      return atomic(
        ta,
        x,
        () => decideFlags,
        () => orig(ta, x, ...v),
        fn,
        name,
      );
    };
    atomics[name] = fn as Fn;
  };
  rmw('load', READ);
  rmw('store', STORE);
  for (const name of ['add', 'sub', 'and', 'or', 'xor', 'exchange'] as const) rmw(name, RMW);
  const cas = (ta: Int32Array, i: unknown, expected: unknown, replacement: unknown): unknown => {
    const x = element(ta, i);
    if (x < 0) return rawAtomics.compareExchange(ta, i as number, expected as number, replacement as number);
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
      cas,
      'compareExchange',
    );
  };
  atomics.compareExchange = cas as Fn;

  const waiters = (ta: Int32Array, x: number): [number, number] => [
    packA(Tag.WaiterList, ctx.idOf(ta.buffer as SharedArrayBuffer)),
    ta.byteOffset + x * ta.BYTES_PER_ELEMENT,
  ];
  /** Leaving the wait: enter and leave the waiter list's critical section (and read again if not-equal). */
  const afterWait = (ta: Int32Array, x: number, result: unknown): void => {
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
  const beforeWait = (ta: Int32Array, x: number, fn: Callee, name: string): void => {
    const [a, b] = waiters(ta, x);
    atomic(
      ta,
      x,
      () => READ,
      () => {
        appendCell(s, SyncKind.Acquire, t, a, b);
        appendCell(s, SyncKind.Release, t, a, b);
      },
      fn,
      name,
    );
  };
  const wait = (ta: Int32Array, i: unknown, value: unknown, timeout?: number): unknown => {
    const x = element(ta, i);
    if (x < 0) return rawAtomics.wait(ta, i as number, value as number, timeout);
    beforeWait(ta, x, wait, 'wait');
    const r = rawAtomics.wait(ta, x, value as number, timeout);
    afterWait(ta, x, r);
    return r;
  };
  atomics.wait = wait as Fn;
  if (rawAtomics.waitAsync) {
    const waitAsync = (ta: Int32Array, i: unknown, value: unknown, timeout?: number): unknown => {
      const x = element(ta, i);
      const orig = rawAtomics.waitAsync as unknown as (...a: unknown[]) => { async: boolean; value: unknown };
      if (x < 0) return orig(ta, i, value, timeout);
      beforeWait(ta, x, waitAsync, 'waitAsync');
      const r = orig(ta, x, value, timeout);
      if (r.async) {
        r.value = (r.value as Promise<unknown>).then((v) => {
          afterWait(ta, x, v);
          return v;
        });
      } else afterWait(ta, x, r.value);
      return r;
    };
    atomics.waitAsync = waitAsync as Fn;
  }
  const notify = (ta: Int32Array, i: unknown, count?: number): unknown => {
    const x = element(ta, i);
    if (x < 0) return rawAtomics.notify(ta, i as number, count);
    const [a, b] = waiters(ta, x);
    return ctx.listLocked(() => {
      appendCell(s, SyncKind.Acquire, t, a, b);
      const n = rawAtomics.notify(ta, x, count);
      appendCell(s, SyncKind.Release, t, a, b);
      return n;
    });
  };
  atomics.notify = notify as Fn;
  // each replacement, on a first argument that is not a view over shared memory, calls its original (`element`)
  for (const name of Object.keys(rawAtomics) as (keyof typeof rawAtomics)[])
    if (atomics[name] !== rawAtomics[name])
      originals.set(atomics[name] as AnyFn, { original: rawAtomics[name] as AnyFn, argument: 0 });
}
