/**
 * Element accesses performed under the word's check lock, with their values: the `get`/`set` of the hooks contract
 * ({@link Runtime}) for a run that is recorded with values (`goldilocks run --record`, `./record.ts`) or jumbled
 * (`goldilocks run --jumble`, `./jumble/memory.ts`). Such a runtime has no `r`/`w` fast path, so every element access
 * of a view over shared memory comes here (`../hooks/contract.ts`).
 *
 * `get`/`set` note the pending element access, then check it (`CheckRange`); the check calls
 * {@link LockedElements.onAccess} (`Shadow.onAccess`) under the word's check lock, which performs the access there
 * — unless a race stops it (`Shadow.lastConflict` with `stopOnRace`) — so the value read or written is the one at
 * the access's place in the check order of its word: the order a recorded trace gives it, and the order of the
 * write buffers of adversarial memory (the paper's [WRITE] and [READ] rules act on the state the check sees).
 *
 * Values are bytes: the 8 bytes of the access's 8-byte word as two Int32 (`lo` bytes 0-3, `hi` bytes 4-7,
 * little-endian), those of the access holding its value as its element type encodes it (ECMA-262 §25.1.3.17
 * NumericToRawBytes; a NaN keeps its bits), the others 0. A write's value is converted (ToNumber / ToBigInt, which may
 * run user code) before the check, outside the lock, as the plain store would convert it; the store then writes the
 * converted value. A read returns what adversarial memory chose (`WordMemory.read`), else the element as it is.
 *
 * A `DataView` get or set of a jumbled location, aligned to its size (so within one word, with the bytes an element
 * of that size would have), is performed the same way ({@link LockedElements.viewAccess}, called by
 * `./intercept/dataview.ts`): a set feeds the write buffers with its bytes, a get returns the bytes adversarial
 * memory chose, decoded with the get's endianness (an 8-byte Float64 or BigInt get may tear, as the element would).
 * Every other checked word (Atomics, unaligned or unselected DataView accesses, bulk methods, text codecs) is passed
 * on: to adversarial memory as a write of unknown value when it writes (a read of it reads memory, always legal), and
 * to the recorder without value.
 */
import type { Runtime, ThreadHooks } from '../hooks/contract.js';
import { toStringTag } from '../hooks/views.js';
import type { CheckRange } from './context.js';
import { type Recorder, VALUE } from './record.js';
import { Access, type Shadow } from './shadow/goldilocks.js';
import type { Sites } from './sites.js';
import { index, toKey } from './views.js';

/** Adversarial memory (`./jumble/memory.ts`) as the element accesses under the word lock use it. */
export interface WordMemory {
  /** Are the elements at bytes [off, off + size) of `buffer` jumbled (their write buffers kept)? */
  selects(buffer: SharedArrayBuffer, off: number, size: number): boolean;
  /**
   * A write of the bytes `mask` of word `word` (its address, `./shadow/table.ts`) at `site`: an element store of the bytes (lo, hi) of
   * the word, selected, when `known` (the memory holds (realLo, realHi) before it), else a write whose bytes it does
   * not know (Atomics, DataView, bulk, text codecs). The word lock is held; an element store follows the call.
   */
  write(
    word: number,
    mask: number,
    lo: number,
    hi: number,
    site: number,
    known: boolean,
    realLo: number,
    realHi: number,
  ): void;
  /**
   * A read of the bytes `mask` of word `word` (its address), selected, whose memory holds (lo, hi) now: @returns
   * true when it chose the bytes to return, left in {@link lo} / {@link hi}. `tearable`: an 8-byte element that
   * may tear (Float64, BigInt64, BigUint64: ECMA-262 IsNoTearConfiguration is false); `place`: the read's site
   * (string id), element type and byte in its word, for its log. Word lock held.
   */
  read(
    word: number,
    mask: number,
    tearable: boolean,
    lo: number,
    hi: number,
    place: { site: number; tag: string; at: number; littleEndian: boolean },
  ): boolean;
  lo: number;
  hi: number;
}

/** One 8-byte scratch word with a view of each element type: encodes and decodes element values. */
const scratch = new ArrayBuffer(8);
const words = new Int32Array(scratch);
const typed: Record<string, Record<number, unknown>> = {
  Int8Array: new Int8Array(scratch),
  Uint8Array: new Uint8Array(scratch),
  Uint8ClampedArray: new Uint8ClampedArray(scratch),
  Int16Array: new Int16Array(scratch),
  Uint16Array: new Uint16Array(scratch),
  Int32Array: new Int32Array(scratch),
  Uint32Array: new Uint32Array(scratch),
  Float32Array: new Float32Array(scratch),
  Float64Array: new Float64Array(scratch),
  BigInt64Array: new BigInt64Array(scratch),
  BigUint64Array: new BigUint64Array(scratch),
};
const F16 = (globalThis as { Float16Array?: new (b: ArrayBuffer) => Record<number, unknown> }).Float16Array;
if (F16 !== undefined) typed.Float16Array = new F16(scratch);
const bytes = new Uint8Array(scratch);
/** The scratch word as a DataView: `get<Type>`/`set<Type>` of a DataView access's type, either endianness. */
const scratchView = new DataView(scratch) as unknown as Record<
  string,
  (at: number, value?: unknown, littleEndian?: boolean) => unknown
>;

/**
 * The element of type `tag` (a typed array's name) at byte `at` of the 8-byte word (lo, hi), its bytes read
 * little-endian (a typed array's, on the little-endian hosts the runtime supports) or big-endian (a DataView get's
 * default): a Number or BigInt.
 */
export function elementOf(tag: string, at: number, lo: number, hi: number, littleEndian = true): unknown {
  words[0] = lo;
  words[1] = hi;
  if (!littleEndian) return scratchView[`get${tag.slice(0, -'Array'.length)}`](at, false);
  return typed[tag][at / (typed[tag] as unknown as Int8Array).BYTES_PER_ELEMENT];
}

/** Element types whose 8-byte accesses may tear (ECMA-262 IsNoTearConfiguration is false for them). */
const TEARABLE = new Set(['Float64Array', 'BigInt64Array', 'BigUint64Array']);

/** The bytes of a SharedArrayBuffer, for the DataView accesses performed under the word lock. */
const bytesOf = new WeakMap<SharedArrayBuffer, Uint8Array>();
const bytesView = (buffer: SharedArrayBuffer): Uint8Array => {
  let u = bytesOf.get(buffer);
  if (u === undefined) {
    u = new Uint8Array(buffer);
    bytesOf.set(buffer, u);
  }
  return u;
};

/** What the element accesses under the word lock need of the thread's runtime. */
export interface LockedChecks {
  hooks: ThreadHooks;
  sites: Sites;
  shadow: Shadow;
  checkRange: CheckRange;
  stopOnRace: boolean;
  recorder: Recorder | undefined;
  memory: WordMemory | undefined;
}

/** The element `get`/`set` of a thread whose accesses are performed under the word lock (see the file header). */
export class LockedElements {
  /** The pending element access: its view (undefined: none), element index, kind, element type, byte in its word. */
  private view: ArrayBufferView | undefined = undefined;
  private element = 0;
  private write = false;
  private tag = '';
  private at = 0;
  /** Whether adversarial memory keeps this element's write buffer. */
  private jumbled = false;
  /** A write's converted value; a read's result, once performed. */
  private value: unknown = undefined;
  private done = false;
  /** The bytes of the pending access's word: those written (a write's, set by `set`) or read. */
  private lo = 0;
  private hi = 0;
  /** The pending DataView access: its buffer's bytes (undefined: none), first byte, size, type, endianness. */
  private dv: Uint8Array | undefined = undefined;
  private dvByte = 0;
  private dvSize = 0;
  private dvType = '';
  private dvLittle = false;
  /** The value a DataView get performed by {@link viewAccess} read. */
  viewValue: unknown = undefined;
  /** The pending read's place, for adversarial memory's log. */
  private readonly place = { site: 0, tag: '', at: 0, littleEndian: true };
  readonly runtime: Pick<Runtime, 'get' | 'set'>;

  constructor(private readonly c: LockedChecks) {
    const { hooks, sites, checkRange } = c;
    const { siteOf } = sites;
    this.runtime = {
      get: (o, k, site) => {
        const key = toKey(k);
        const i = index(o, key);
        if (i < 0) return (o as unknown as Record<PropertyKey, unknown>)[key];
        const bpe = (o as Int8Array).BYTES_PER_ELEMENT;
        const off = o.byteOffset + i * bpe;
        this.pend(o, i, false, off, bpe);
        try {
          checkRange(o.buffer as SharedArrayBuffer, off, bpe, 0, siteOf(site), o, hooks.get);
        } finally {
          this.view = undefined;
        }
        return this.done ? this.value : (o as unknown as Record<PropertyKey, unknown>)[key];
      },
      set: (o, k, v, site) => {
        const key = toKey(k);
        const i = index(o, key);
        if (i < 0) {
          (o as unknown as Record<PropertyKey, unknown>)[key] = v;
          return v;
        }
        const bpe = (o as Int8Array).BYTES_PER_ELEMENT;
        const off = o.byteOffset + i * bpe;
        // ToNumber / ToBigInt as the store does, once, before the check (user code must not run under the lock)
        const tag = toStringTag.call(o) as string;
        const view = typed[tag];
        words[0] = 0;
        words[1] = 0;
        view[(off & 7) / bpe] = v;
        const converted = view[(off & 7) / bpe];
        this.pend(o, i, true, off, bpe);
        this.value = converted;
        this.lo = words[0];
        this.hi = words[1];
        try {
          checkRange(o.buffer as SharedArrayBuffer, off, bpe, Access.WRITE, siteOf(site), o, hooks.set);
        } finally {
          this.view = undefined;
        }
        if (!this.done) (o as unknown as Record<PropertyKey, unknown>)[key] = converted;
        return v;
      },
    };
  }

  /** Notes the pending element access `o[i]` (bytes [off, off + bpe) of its buffer). */
  private pend(o: ArrayBufferView, i: number, write: boolean, off: number, bpe: number): void {
    this.view = o;
    this.element = i;
    this.write = write;
    this.tag = toStringTag.call(o) as string;
    this.at = off & 7;
    this.done = false;
    const memory = this.c.memory;
    this.jumbled = memory?.selects(o.buffer as SharedArrayBuffer, off, bpe) === true;
  }

  /**
   * `Shadow.onAccess` (word lock held): performs the pending element access, tells adversarial memory about
   * writes, and appends the record of a recorded run (see the file header).
   */
  readonly onAccess = (word: number, bits: number, site: number): void => {
    const { memory, recorder } = this.c;
    const o = this.view;
    let valued = false;
    if (this.dv !== undefined && (bits & Access.ATOMIC) === 0) {
      if (this.c.shadow.lastConflict === undefined || !this.c.stopOnRace) {
        this.performView(word, bits, site);
        valued = true;
      }
    } else if (o !== undefined && (bits & Access.ATOMIC) === 0) {
      this.view = undefined;
      if (this.c.shadow.lastConflict === undefined || !this.c.stopOnRace) {
        const elements = o as unknown as Record<number, unknown>;
        const view = typed[this.tag];
        const bpe = (o as Int8Array).BYTES_PER_ELEMENT;
        if (this.write) {
          if (memory !== undefined && this.jumbled) {
            const { lo, hi } = this;
            words[0] = 0;
            words[1] = 0;
            view[this.at / bpe] = elements[this.element];
            memory.write(word, bits & 0xff, lo, hi, site, true, words[0], words[1]);
          }
          elements[this.element] = this.value;
        } else {
          words[0] = 0;
          words[1] = 0;
          view[this.at / bpe] = elements[this.element];
          let lo = words[0];
          let hi = words[1];
          if (memory !== undefined && this.jumbled) {
            const place = this.place;
            place.site = site;
            place.tag = this.tag;
            place.at = this.at;
            place.littleEndian = true;
            if (memory.read(word, bits & 0xff, bpe === 8 && TEARABLE.has(this.tag), lo, hi, place)) {
              lo = memory.lo;
              hi = memory.hi;
              words[0] = lo;
              words[1] = hi;
            }
          }
          this.value = view[this.at / bpe];
          this.lo = lo;
          this.hi = hi;
        }
        this.done = true;
        valued = true;
      }
    } else if (memory !== undefined && bits & Access.WRITE)
      memory.write(word, bits & 0xff, 0, 0, site, false, 0, 0);
    if (recorder !== undefined) recorder.log(word, valued ? bits | VALUE : bits, site, this.lo, this.hi);
  };

  /**
   * A `DataView` get (`write` false) or set of `size` bytes (1, 2, 4 or 8) of type `type` (`Int8` … `BigUint64`) at
   * byte `byte` of `buffer` (in bounds), with endianness `littleEndian` and, for a set, the value `value` as given:
   * performed under the word lock, by `check` (the access's `CheckRange`), when adversarial memory jumbles it (see the
   * file header). @returns false when it does not (the caller checks and performs it); true when performed, a get's
   * value in {@link viewValue}. A set's value is converted (ToNumber / ToBigInt, user code) first, outside the lock.
   */
  viewAccess(
    buffer: SharedArrayBuffer,
    byte: number,
    size: number,
    type: string,
    littleEndian: boolean,
    write: boolean,
    value: unknown,
    check: () => void,
  ): boolean {
    const memory = this.c.memory;
    if (memory === undefined || byte % size !== 0 || !memory.selects(buffer, byte, size)) return false;
    const at = byte & 7;
    if (write) {
      words[0] = 0;
      words[1] = 0;
      scratchView[`set${type}`](at, value, littleEndian);
      this.lo = words[0];
      this.hi = words[1];
    }
    const u = bytesView(buffer);
    this.dv = u;
    this.dvByte = byte;
    this.dvSize = size;
    this.dvType = type;
    this.dvLittle = littleEndian;
    this.write = write;
    this.at = at;
    this.done = false;
    try {
      check();
    } finally {
      this.dv = undefined;
    }
    if (this.done) return true;
    // not performed under the lock (a race stopped it and did not throw): plainly, as the original would
    if (write) {
      words[0] = this.lo;
      words[1] = this.hi;
      for (let b = 0; b < size; b++) u[byte + b] = bytes[at + b];
    } else {
      this.wordOf(u, byte, size, at);
      this.viewValue = scratchView[`get${type}`](at, littleEndian);
    }
    return true;
  }

  /** The scratch word := the `size` bytes at `byte` of `u` at byte `at`, the others 0. */
  private wordOf(u: Uint8Array, byte: number, size: number, at: number): void {
    words[0] = 0;
    words[1] = 0;
    for (let b = 0; b < size; b++) bytes[at + b] = u[byte + b];
  }

  /** Performs the pending DataView access of {@link viewAccess} (word lock held): see the file header. */
  private performView(word: number, bits: number, site: number): void {
    const memory = this.c.memory as WordMemory;
    const u = this.dv as Uint8Array;
    this.dv = undefined;
    const { dvByte: byte, dvSize: size, at } = this;
    const mask = bits & 0xff;
    if (this.write) {
      const { lo, hi } = this;
      this.wordOf(u, byte, size, at);
      memory.write(word, mask, lo, hi, site, true, words[0], words[1]);
      words[0] = lo;
      words[1] = hi;
      for (let b = 0; b < size; b++) u[byte + b] = bytes[at + b];
    } else {
      this.wordOf(u, byte, size, at);
      const tag = `${this.dvType}Array`;
      const place = this.place;
      place.site = site;
      place.tag = tag;
      place.at = at;
      place.littleEndian = this.dvLittle;
      if (memory.read(word, mask, size === 8 && TEARABLE.has(tag), words[0], words[1], place)) {
        words[0] = memory.lo;
        words[1] = memory.hi;
      }
      this.lo = words[0];
      this.hi = words[1];
      this.viewValue = scratchView[`get${this.dvType}`](at, this.dvLittle);
    }
    this.done = true;
  }
}
