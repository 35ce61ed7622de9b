/** The `DataView` interceptors: see {@link patchDataView}. */
import { notSharedCache } from '../../hooks/views.js';
import type { Context } from '../context.js';
import type { LockedElements } from '../locked.js';
import { Access } from '../shadow/goldilocks.js';
import { type AnyFn, integer, originals, replaceFunction } from './common.js';

/**
 * The DataView accesses of a jumbled run, performed under the word lock when adversarial memory jumbles them
 * (`../locked.ts` viewAccess); undefined in other runs. One per thread, as this module is.
 */
let locked: Pick<LockedElements, 'viewAccess' | 'viewValue'> | undefined;

/** Makes this thread's DataView gets and sets of jumbled locations go through `l` (a jumbled run: `../runtime.ts`). */
export function lockDataViews(l: Pick<LockedElements, 'viewAccess' | 'viewValue'>): void {
  locked = l;
}

/**
 * `DataView.prototype` get and set methods: an access of shared memory is checked as a data access of its bytes, at
 * the static site of a rewritten call (`DATAVIEW_METHODS` of `../../hooks/names.ts`), else at the caller's frame
 * from a stack; each replacement is recorded with its original in {@link originals}.
 * A DataView never changes its buffer, so the last two found over memory that is not shared are kept
 * ({@link notSharedCache}): an access through one costs a comparison or two more than the original (bench:instrument, "DataView get/set/get, not shared"). The
 * wrappers take the original's parameters (byteOffset, then value for a set, then littleEndian; an absent one is
 * undefined, which the original reads the same way) and its `length`.
 */
export function patchDataView(ctx: Context): void {
  const proto = DataView.prototype as unknown as Record<string, AnyFn>;
  const get = (name: string) => Object.getOwnPropertyDescriptor(DataView.prototype, name)!.get!;
  const bufferOf = get('buffer');
  const offsetOf = get('byteOffset');
  const lengthOf = get('byteLength');
  const sizes: Record<string, number> = {
    Int8: 1,
    Uint8: 1,
    Int16: 2,
    Uint16: 2,
    Int32: 4,
    Uint32: 4,
    Float32: 4,
    Float64: 8,
    BigInt64: 8,
    BigUint64: 8,
  };
  /** Is `o` a DataView over memory that is not shared (the last two found so are kept)? */
  const plainDataView = notSharedCache((o) => {
    try {
      return bufferOf.call(o) instanceof SharedArrayBuffer;
    } catch {
      return true; // not a DataView: `check` lets the original throw its own TypeError
    }
  });
  /** A DataView over shared memory with its buffer, byte offset and byte length. */
  interface Kept {
    view: object;
    buffer: SharedArrayBuffer;
    start: number;
    length: number;
  }
  // The last two DataViews `check` found over a SharedArrayBuffer that cannot grow, whose buffer, byte offset and byte
  // length never change (ECMA-262 §25.3.2.1: a DataView's [[ViewedArrayBuffer]], [[ByteOffset]] and, but for one that
  // tracks a growable buffer's length, [[ByteLength]] are fixed at its creation; a SharedArrayBuffer is never
  // detached): a loop over one or two views reads no getter per access (three native calls, bench:programs
  // dataview-records). A view over a growable buffer is not kept: its length may track the buffer's. (Held until two
  // others replace them, as the element hooks' view cache holds its views.)
  // slots not filled yet hold a view no program has (undefined, a receiver `check` may get, would match them)
  const none: Kept = { view: {}, buffer: new SharedArrayBuffer(0), start: 0, length: 0 };
  let kept1 = none;
  let kept2 = none;
  /**
   * Checks the access of `self` at `byteOffset`, a DataView over shared memory (or not a DataView: {@link
   * plainDataView} took the others), by `Context.checkBytes`; returns the offset to pass on to the original.
   */
  const check = (
    self: DataView,
    byteOffset: unknown,
    size: number,
    flags: number,
    name: string,
    fn: AnyFn,
  ) => {
    let k = self === kept1.view ? kept1 : self === kept2.view ? kept2 : undefined;
    let off: number;
    if (k !== undefined) off = integer(byteOffset);
    else {
      let buffer: SharedArrayBuffer;
      try {
        buffer = bufferOf.call(self) as SharedArrayBuffer;
      } catch {
        return byteOffset; // not a DataView: the original throws its own TypeError
      }
      // the offset converted first, as the original converts it (its valueOf may grow the buffer), then the length read
      off = integer(byteOffset);
      k = { view: self, buffer, start: offsetOf.call(self) as number, length: lengthOf.call(self) as number };
      if (!buffer.growable) {
        kept2 = kept1;
        kept1 = k;
      }
    }
    if (!(off >= 0 && off + size <= k.length)) return off;
    ctx.checkBytes(k.buffer, k.start + off, size, flags, name, fn);
    return off;
  };
  /**
   * The access of `self` (a DataView over shared memory, or not a DataView) at `off` performed by {@link locked}
   * when it jumbles it: true then (a get's value in `locked.viewValue`), else false.
   */
  const jumbled = (
    self: DataView,
    off: number,
    size: number,
    type: string,
    littleEndian: unknown,
    write: boolean,
    value: unknown,
    name: string,
    fn: AnyFn,
  ): boolean => {
    let buffer: SharedArrayBuffer;
    try {
      buffer = bufferOf.call(self) as SharedArrayBuffer;
    } catch {
      return false; // not a DataView: the original throws its own TypeError
    }
    if (!(off >= 0 && off + size <= (lengthOf.call(self) as number))) return false;
    const byte = (offsetOf.call(self) as number) + off;
    return (locked as NonNullable<typeof locked>).viewAccess(
      buffer,
      byte,
      size,
      type,
      Boolean(littleEndian),
      write,
      value,
      () => ctx.checkRange(buffer, byte, size, write ? Access.WRITE : 0, ctx.callerSite(fn), name, fn),
    );
  };
  for (const [type, size] of Object.entries(sizes)) {
    const getter = proto[`get${type}`];
    const getName = `DataView#get${type}`;
    const getFn = function (this: DataView, byteOffset: unknown, littleEndian: unknown): unknown {
      if (plainDataView(this)) return getter.call(this, byteOffset, littleEndian);
      if (locked !== undefined) {
        const off = integer(byteOffset);
        if (jumbled(this, off, size, type, littleEndian, false, undefined, getName, getFn as AnyFn))
          return locked.viewValue;
        return getter.call(this, check(this, off, size, 0, getName, getFn as AnyFn), littleEndian);
      }
      return getter.call(this, check(this, byteOffset, size, 0, getName, getFn as AnyFn), littleEndian);
    };
    replaceFunction(proto, `get${type}`, getFn as AnyFn);
    // a rewritten call on a DataView not over shared memory calls the original (`../../hooks/callee.ts`)
    originals.set(getFn as AnyFn, { original: getter });
    const setter = proto[`set${type}`];
    const setName = `DataView#set${type}`;
    const setFn = function (
      this: DataView,
      byteOffset: unknown,
      value: unknown,
      littleEndian: unknown,
    ): unknown {
      if (plainDataView(this)) return setter.call(this, byteOffset, value, littleEndian);
      if (locked !== undefined) {
        const off = integer(byteOffset);
        if (jumbled(this, off, size, type, littleEndian, true, value, setName, setFn as AnyFn))
          return undefined;
        return setter.call(
          this,
          check(this, off, size, Access.WRITE, setName, setFn as AnyFn),
          value,
          littleEndian,
        );
      }
      return setter.call(
        this,
        check(this, byteOffset, size, Access.WRITE, setName, setFn as AnyFn),
        value,
        littleEndian,
      );
    };
    replaceFunction(proto, `set${type}`, setFn as AnyFn);
    originals.set(setFn as AnyFn, { original: setter });
  }
}
