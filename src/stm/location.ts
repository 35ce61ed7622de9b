/**
 * Transactional locations: what `tx.read(view, index)` and `tx.write(view, index, value)` name, and the atomic
 * loads and stores of their bytes.
 *
 * A location is `(buffer, byteIndex, width)`: the element `index` of an integer or float typed array over a
 * `SharedArrayBuffer` (`byteIndex = view.byteOffset + index * width`, width 1, 2, 4 or 8 bytes; elements are
 * naturally aligned, ECMA-262 §23.2.5.1.1). Values pass through one 8-byte scratch buffer: a store puts the value
 * into the scratch element of the view's type (which converts it exactly as an element store does) and copies its
 * bytes; a load fills the scratch bytes and reads the element back. Memory is only ever touched with `Atomics`
 * (ECMA-262 §25.4) on Uint8/Uint16/Int32 aliases of the buffer, so the STM's own accesses never tear below their
 * alias width and keep their order against the ownership-record loads around them (the seqlock ordering TL2's
 * read relies on: Dice, Shalev, Shavit, *Transactional Locking II*, DISC 2006, §2.1); an 8-byte element is two
 * Int32 loads, made consistent by the same validation.
 */

import { A } from './observer.js';

/** The view kinds the STM accepts, by their `Symbol.toStringTag`. */
type Tag =
  | 'Int8Array'
  | 'Uint8Array'
  | 'Uint8ClampedArray'
  | 'Int16Array'
  | 'Uint16Array'
  | 'Int32Array'
  | 'Uint32Array'
  | 'Float32Array'
  | 'Float64Array'
  | 'BigInt64Array'
  | 'BigUint64Array';

/** An integer or float typed array (the STM accepts only those over a `SharedArrayBuffer`). */
export type TypedView =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/** An element's value: a bigint for BigInt64Array/BigUint64Array, a number otherwise. */
export type Element = number | bigint;

const scratch = new ArrayBuffer(8);
/** The scratch bytes, for copying into and out of write-set entries. */
export const scratchBytes = new Uint8Array(scratch);
const scratch16 = new Uint16Array(scratch);
const scratch32 = new Int32Array(scratch);

/** One scratch element per view kind: storing into it converts a value as an element store of that kind does. */
const scratchOf: Record<Tag, { [i: number]: Element }> = {
  Int8Array: new Int8Array(scratch, 0, 1),
  Uint8Array: new Uint8Array(scratch, 0, 1),
  Uint8ClampedArray: new Uint8ClampedArray(scratch, 0, 1),
  Int16Array: new Int16Array(scratch, 0, 1),
  Uint16Array: new Uint16Array(scratch, 0, 1),
  Int32Array: new Int32Array(scratch, 0, 1),
  Uint32Array: new Uint32Array(scratch, 0, 1),
  Float32Array: new Float32Array(scratch, 0, 1),
  Float64Array: new Float64Array(scratch, 0, 1),
  BigInt64Array: new BigInt64Array(scratch, 0, 1),
  BigUint64Array: new BigUint64Array(scratch, 0, 1),
};

/** `%TypedArray%.prototype[@@toStringTag]`: the view's kind, or undefined when it is not a typed array. */
const tagOf = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), Symbol.toStringTag)!
  .get as (this: unknown) => Tag | undefined;

/** The Atomics aliases of one buffer, made once per buffer object. */
interface Aliases {
  u8: Uint8Array;
  u16: Uint16Array;
  i32: Int32Array;
}

const aliases = new WeakMap<SharedArrayBuffer, Aliases>();

/** Whole-buffer aliases; a growable buffer gets length-tracking ones (ECMA-262 §23.2.5.1.3). */
function aliasesOf(buffer: SharedArrayBuffer): Aliases {
  let a = aliases.get(buffer);
  if (a === undefined) {
    const n = buffer.byteLength;
    a = buffer.growable
      ? { u8: new Uint8Array(buffer), u16: new Uint16Array(buffer), i32: new Int32Array(buffer) }
      : {
          u8: new Uint8Array(buffer),
          u16: new Uint16Array(buffer, 0, n >>> 1),
          i32: new Int32Array(buffer, 0, Math.floor(n / 4)),
        };
    aliases.set(buffer, a);
  }
  return a;
}

/**
 * The location `tx.read`/`tx.write` resolved last: one reused object (the callers copy what they keep), so an
 * access allocates nothing.
 */
export const at = {
  buffer: undefined as unknown as SharedArrayBuffer,
  byteIndex: 0,
  width: 0,
  tag: 'Int8Array' as Tag,
};

/**
 * Resolves `view[index]` into `at`.
 * @throws TypeError when `view` is not an integer or float typed array, or its buffer is not a
 *   `SharedArrayBuffer`; RangeError when `index` is not an integer in `0 … view.length − 1`.
 */
export function locate(view: TypedView, index: number): void {
  const tag = tagOf.call(view);
  if (tag === undefined) throw new TypeError(`stm: ${describe(view)} is not a typed array`);
  const buffer = view.buffer;
  if (!(buffer instanceof SharedArrayBuffer))
    throw new TypeError(`stm: the ${tag} is not over a SharedArrayBuffer (transactions need shared memory)`);
  if (!Number.isInteger(index) || index < 0 || index >= view.length)
    throw new RangeError(`stm: index ${String(index)} is out of range for a ${tag} of length ${view.length}`);
  const width = view.BYTES_PER_ELEMENT;
  at.buffer = buffer;
  at.byteIndex = view.byteOffset + index * width;
  at.width = width;
  at.tag = tag;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  return (v as object).constructor?.name ?? 'object';
}

/**
 * A key of the buffer that is the same in every thread: its byte length, or its maximum byte length when it is
 * growable. `SharedArrayBuffer` objects have no identity across threads (each structured clone makes a new object
 * over the same memory), so the ownership-record table hashes `(sizeKey, byteIndex)`: two buffers of one size
 * share records (a false conflict at worst), one buffer always maps to the same records in every thread.
 */
export function sizeKey(buffer: SharedArrayBuffer): number {
  return buffer.growable ? buffer.maxByteLength : buffer.byteLength;
}

/** Loads the `width` bytes at `byteIndex` into the scratch bytes `0 … width − 1`, with Atomics. */
export function loadRaw(buffer: SharedArrayBuffer, byteIndex: number, width: number): void {
  const a = aliasesOf(buffer);
  if (width === 4) scratch32[0] = A.load(a.i32, byteIndex / 4);
  else if (width === 8) {
    scratch32[0] = A.load(a.i32, byteIndex / 4);
    scratch32[1] = A.load(a.i32, byteIndex / 4 + 1);
  } else if (width === 2) scratch16[0] = A.load(a.u16, byteIndex / 2);
  else scratchBytes[0] = A.load(a.u8, byteIndex);
}

/** The scratch bytes read as an element of kind `tag`. */
export function decode(tag: Tag): Element {
  return scratchOf[tag][0];
}

/**
 * Converts `value` as a store into an element of kind `tag` does, leaving its bytes in the scratch bytes.
 * @throws TypeError when the value does not convert (a bigint into a number array, a number into a BigInt one).
 */
export function encode(tag: Tag, value: Element): void {
  scratchOf[tag][0] = value;
}

/**
 * Staged bytes (a write set's payload, `./log.ts`): slot `k` is the 8 bytes `8k … 8k + 7` of `bytes`, seen also as
 * Uint16 `halves` and Int32 `words` over the same memory, with a byte mask (bit `i` set when byte `i` of the slot
 * holds a value to write).
 */
export interface Staging {
  bytes: Uint8Array;
  halves: Uint16Array;
  words: Int32Array;
}

/** Staging of `slots` slots. */
export function staging(slots: number): Staging {
  const b = new ArrayBuffer(8 * slots);
  return { bytes: new Uint8Array(b), halves: new Uint16Array(b), words: new Int32Array(b) };
}

/**
 * Stores the bytes of slot `slot` of `s` selected by `mask` at `byteIndex + i` (`byteIndex` a multiple of 8) with
 * the widest aligned Atomics stores that fit; the unmasked bytes in memory are left as they are.
 */
export function storeMasked(
  buffer: SharedArrayBuffer,
  byteIndex: number,
  s: Staging,
  slot: number,
  mask: number,
): void {
  const a = aliasesOf(buffer);
  let i = 0;
  while (i < 8) {
    if (i % 4 === 0 && ((mask >>> i) & 0xf) === 0xf) {
      A.store(a.i32, (byteIndex + i) / 4, s.words[2 * slot + i / 4]);
      i += 4;
    } else if (i % 2 === 0 && ((mask >>> i) & 3) === 3) {
      A.store(a.u16, (byteIndex + i) / 2, s.halves[4 * slot + i / 2]);
      i += 2;
    } else {
      if ((mask >>> i) & 1) A.store(a.u8, byteIndex + i, s.bytes[8 * slot + i]);
      i += 1;
    }
  }
}
