import { TraceError } from '../model/errors.js';
import * as ev from '../model/events.js';
import { growAtLeast, type Interner } from '../model/interner.js';
import type { Symbols } from '../model/symbols.js';
import type { TraceParser } from './parser.js';
import { BINARY_MAGIC } from './reading.js';

/**
 * Goldilocks' binary trace format (`bin`), grammar in docs/FORMATS.md ("Binary format"): an 8-byte header
 * (`GLKTRC`, a zero byte, the version), then records. A record is a tag byte and unsigned LEB128 varints:
 *  - `0x80 | ns`, length, bytes: defines the next file-local id of namespace `ns` (ids count from 0 per
 *    namespace) as the UTF-8 name `bytes`;
 *  - `kind` or `0x40 | kind` (the event kinds of model/events.ts), thread id, location id, then the target
 *    id (for r/w with 0x40 also a value id; ard/awd always have 0x40 and their atomic location's volatile id),
 *    or for commit `nReads, reads..., nWrites, writes...`, or for a marker the marker id when 0x40 is set.
 */

/** The version of the format this code reads and writes. */
export const BINARY_VERSION = 1;

/** Tag bit of an event with its optional field (value of r/w, name of a marker). */
export const TAG_OPTIONAL = 0x40;
/** Tag bit of a name definition (the low bits are the namespace). */
export const TAG_DEFINE = 0x80;

/** Namespaces of file-local ids, in the order of {@link namespaceTables}. */
export const NS_THREAD = 0;
export const NS_VARIABLE = 1;
export const NS_LOCK = 2;
export const NS_VOLATILE = 3;
export const NS_OBJECT = 4;
export const NS_LOCATION = 5;
export const NS_VALUE = 6;
export const NS_MARKER = 7;
export const NS_COUNT = 8;
const NS_NAMES = ['thread', 'variable', 'lock', 'volatile', 'object', 'location', 'value', 'marker'];

/** Namespace of the target of each event kind; -1 for commit (its sets are variables). */
export const TARGET_NS: Int8Array = (() => {
  const t = new Int8Array(ev.KIND_COUNT).fill(NS_MARKER);
  for (const k of [ev.READ, ev.WRITE, ev.ATOMIC_DATA_READ, ev.ATOMIC_DATA_WRITE]) t[k] = NS_VARIABLE;
  for (const k of [ev.ACQUIRE, ev.RELEASE, ev.WAIT, ev.NOTIFY]) t[k] = NS_LOCK;
  for (const k of [
    ev.VOLATILE_READ,
    ev.VOLATILE_WRITE,
    ev.RMW,
    ev.ATOMIC_READ,
    ev.ATOMIC_WRITE,
    ev.ATOMIC_RMW,
  ])
    t[k] = NS_VOLATILE;
  for (const k of [ev.FORK, ev.JOIN]) t[k] = NS_THREAD;
  t[ev.ALLOC] = NS_OBJECT;
  t[ev.COMMIT] = -1;
  return t;
})();

/** Whether a kind always carries its second operand (ard/awd: the atomic location), so always has 0x40. */
const SECOND_REQUIRED = (k: number): boolean => k === ev.ATOMIC_DATA_READ || k === ev.ATOMIC_DATA_WRITE;

/**
 * Namespace of the second operand (the field after the target, present with 0x40) of each kind other than
 * markers: r/w's value, ard/awd's atomic location. Kinds without one never have 0x40 (PLAIN_EVENT_TAG).
 */
export const SECOND_NS: Int8Array = (() => {
  const t = new Int8Array(ev.KIND_COUNT).fill(NS_VALUE);
  t[ev.ATOMIC_DATA_READ] = NS_VOLATILE;
  t[ev.ATOMIC_DATA_WRITE] = NS_VOLATILE;
  return t;
})();

/** 1 for the tags of events other than commit, with the optional bit where the kind has an optional field. */
const PLAIN_EVENT_TAG: Uint8Array = (() => {
  const t = new Uint8Array(256);
  for (let k = 0; k < ev.KIND_COUNT; k++) {
    if (k === ev.COMMIT) continue;
    const marker = TARGET_NS[k] === NS_MARKER;
    if (k !== ev.ENTER && k !== ev.EXIT && !SECOND_REQUIRED(k)) t[k] = 1;
    if (marker || k === ev.READ || k === ev.WRITE || SECOND_REQUIRED(k)) t[k | TAG_OPTIONAL] = 1;
  }
  return t;
})();

/** The symbol tables of `symbols` indexed by namespace (NS_THREAD ... NS_MARKER). */
export function namespaceTables(symbols: Symbols): Interner[] {
  const s = symbols;
  return [s.threads, s.variables, s.locks, s.volatiles, s.objects, s.locations, s.values, s.markers];
}

/** Longest name a definition may carry, in bytes (a bound, so that a corrupt length fails fast). */
const MAX_NAME_BYTES = 1 << 24;
/** Longest event record other than commit: a tag and four varints. */
const MAX_PLAIN_RECORD = 1 + 4 * 5;
/** Bytes of the hex dump in an error message. */
const DUMP_BYTES = 24;

/** Thrown inside the parser when the input ends within a record; never escapes `parse`. */
const INCOMPLETE = new Error('incomplete record');

/**
 * Parser of the binary format. Ids of the file map to `Symbols` ids through one Int32Array per namespace,
 * so an event costs a few varint decodes and array loads, no string. Memory grows with the number of names,
 * not with the number of events.
 *
 * Errors (TraceError with `offset`): bad magic or version, an unknown tag, an optional-field bit on a kind
 * without one, `enter`/`exit` without a name, an id used before its definition, a varint of 2^31 or more, a
 * name over 16 MiB, a variable twice in one commit set, and input ending inside a record (truncation).
 * `line` of an event is its 1-based event number (its line in `goldilocks convert --to ext` output).
 */
export class BinaryParser implements TraceParser {
  readonly format = 'bin';
  readonly skipped = new Map<string, number>();
  private readonly tables: Interner[];
  /** Per namespace: Symbols id of each file id. */
  private readonly ids: Int32Array[] = [];
  /** Per namespace: file ids defined so far. */
  private readonly defined = new Int32Array(NS_COUNT);
  /** Input of the current `parse` call: the buffer, the cursor, the start of the record being read, the bound. */
  private buf: Buffer = Buffer.alloc(0);
  private p = 0;
  private start = 0;
  private end = 0;
  /** `buf[base]` is byte `offset` of the input (for messages). */
  private base = 0;
  private offset = 0;
  private headerRead = false;
  /** Records and events read so far. */
  private records = 0;
  private events = 0;
  private readonly reads: number[] = [];
  private readonly writes: number[] = [];
  /** Duplicate check of commit sets: the set number that last held each variable (Symbols id). */
  private seenIn: Int32Array = new Int32Array(64);
  private sets = 0;

  constructor(
    private readonly symbols: Symbols,
    private readonly file: string,
  ) {
    this.tables = namespaceTables(symbols);
    for (let ns = 0; ns < NS_COUNT; ns++) this.ids.push(new Int32Array(16));
  }

  parse(buf: Buffer, pos: number, end: number, eof: boolean, batch: ev.EventBatch): number {
    this.buf = buf;
    this.p = pos;
    this.start = pos;
    this.end = end;
    this.base = pos;
    try {
      if (!this.headerRead) this.header();
      this.recordsUntilFull(batch);
    } catch (e) {
      if (e !== INCOMPLETE) throw e;
      if (eof) {
        this.fail(
          end,
          `expected the rest of the ${this.headerRead ? 'record' : 'header'} (${end - this.start} of its bytes are present), found the end of the input: the file is truncated`,
        );
      }
    }
    this.offset += this.start - pos;
    return this.start;
  }

  get lines(): number {
    return this.records;
  }

  finish(): void {}

  /**
   * Reads records until the batch is full or the input ends (throwing INCOMPLETE inside a record). The loop
   * decodes a plain event (not commit) that lies wholly in the buffer, with varints of at most 4 bytes
   * ({@link shortVarint}), in locals and without per-field checks (its ids are checked once, together), writing the
   * batch's arrays itself; anything else, including any malformed record, goes to {@link record}, which also makes
   * the errors.
   */
  private recordsUntilFull(batch: ev.EventBatch): void {
    const buf = this.buf;
    const end = this.end;
    const defined = this.defined;
    const ids = this.ids;
    const { kind: kindOf, thread: threadOf, target: targetOf, loc: locOf, value: values, line } = batch;
    const capacity = batch.capacity;
    let n = batch.length;
    let p = this.p;
    let events = this.events;
    let records = this.records;
    while (n < capacity && p < end) {
      const tag = buf[p];
      if (PLAIN_EVENT_TAG[tag] === 1 && end - p >= MAX_PLAIN_RECORD) {
        const kind = tag & ~TAG_OPTIONAL;
        const ns = TARGET_NS[kind];
        const vns = SECOND_NS[kind];
        let q = p + 1;
        const rt = shortVarint(buf, q);
        q += rt & 7;
        const rl = shortVarint(buf, q);
        q += rl & 7;
        let rx = -8;
        if (ns !== NS_MARKER || tag !== kind) {
          rx = shortVarint(buf, q);
          q += rx & 7;
        }
        let rv = -8;
        if (ns !== NS_MARKER && tag !== kind) {
          rv = shortVarint(buf, q);
          q += rv & 7;
        }
        const thread = rt >> 3;
        const loc = rl >> 3;
        const target = rx >> 3;
        const value = rv >> 3;
        if (
          rt > 0 &&
          rl > 0 &&
          rx !== -1 &&
          rv !== -1 &&
          thread < defined[NS_THREAD] &&
          loc < defined[NS_LOCATION] &&
          target < defined[ns] &&
          value < defined[vns]
        ) {
          kindOf[n] = kind;
          threadOf[n] = ids[NS_THREAD][thread];
          targetOf[n] = target < 0 ? -1 : ids[ns][target];
          locOf[n] = ids[NS_LOCATION][loc];
          values[n] = value < 0 ? -1 : ids[vns][value];
          line[n] = ++events;
          n++;
          records++;
          p = q;
          continue;
        }
        // a varint of 5 bytes or an undefined id: record() reads it, or names the error
      }
      batch.length = n;
      this.events = events;
      this.records = records;
      this.start = this.p = p;
      this.record(batch);
      n = batch.length;
      p = this.p;
      events = this.events;
      records++;
    }
    batch.length = n;
    this.events = events;
    this.records = records;
    this.start = this.p = p;
  }

  private header(): void {
    for (let i = 0; i < BINARY_MAGIC.length; i++) {
      if (this.p >= this.end) throw INCOMPLETE;
      if (this.buf[this.p] !== BINARY_MAGIC[i]) {
        const found = this.buf.toString('latin1', this.start, Math.min(this.end, this.start + 16));
        this.fail(
          this.p,
          `expected the magic bytes "GLKTRC\\0" that start a binary trace, found ${JSON.stringify(found)}`,
        );
      }
      this.p++;
    }
    const v = this.byte();
    if (v !== BINARY_VERSION)
      this.fail(this.p - 1, `expected format version ${BINARY_VERSION}, found version ${v}`);
    this.headerRead = true;
  }

  private record(batch: ev.EventBatch): void {
    const tag = this.byte();
    if (PLAIN_EVENT_TAG[tag] === 0) {
      this.otherRecord(tag, batch);
      return;
    }
    const kind = tag & ~TAG_OPTIONAL;
    const thread = this.id(NS_THREAD);
    const loc = this.id(NS_LOCATION);
    const ns = TARGET_NS[kind];
    let target = -1;
    let value = -1;
    if (ns !== NS_MARKER) {
      target = this.id(ns);
      if (tag !== kind) value = this.id(SECOND_NS[kind]);
    } else if (tag !== kind) target = this.id(NS_MARKER);
    batch.push(kind, thread, target, loc, value, ++this.events);
  }

  /** A record other than a plain event: a definition, a commit, or a bad tag. */
  private otherRecord(tag: number, batch: ev.EventBatch): void {
    if (tag >= TAG_DEFINE) {
      this.define(tag);
      return;
    }
    if (tag === ev.COMMIT) {
      const thread = this.id(NS_THREAD);
      const loc = this.id(NS_LOCATION);
      this.set(this.reads);
      this.set(this.writes);
      batch.pushCommit(thread, this.reads, this.writes, loc, ++this.events);
      return;
    }
    const kind = tag & ~TAG_OPTIONAL;
    const name = ev.KIND_NAMES[kind];
    this.fail(
      this.start,
      kind >= ev.KIND_COUNT
        ? `expected a record tag (an event kind 0x00-0x${hex(ev.KIND_COUNT - 1)}, or 0x40 | kind with its optional field, or 0x80-0x87 a name definition), found 0x${hex(tag)}`
        : tag !== kind
          ? `expected tag 0x${hex(kind)} ('${name}' has no optional field), found 0x${hex(tag)}`
          : `expected tag 0x${hex(tag | TAG_OPTIONAL)} ('${name}' carries ${SECOND_REQUIRED(kind) ? 'an atomic location' : 'a method name'}), found 0x${hex(tag)}`,
    );
  }

  /** A name definition: the next file id of the namespace in the tag's low bits. */
  private define(tag: number): void {
    const ns = tag & ~TAG_DEFINE;
    if (ns >= NS_COUNT) {
      this.fail(
        this.start,
        `expected a record tag (0x80-0x87 defines a name; namespaces are ${NS_NAMES.join(', ')}), found 0x${hex(tag)}`,
      );
    }
    const at = this.p;
    const len = this.varint();
    if (len > MAX_NAME_BYTES)
      this.fail(at, `expected a name of at most ${MAX_NAME_BYTES} bytes, found a length of ${len}`);
    const s = this.p;
    if (len > this.end - s) throw INCOMPLETE;
    this.p = s + len;
    const id =
      ns === NS_VARIABLE
        ? this.symbols.variable(this.buf, s, s + len)
        : ns === NS_OBJECT
          ? this.symbols.allocObject(this.buf, s, s + len)
          : this.tables[ns].internBytes(this.buf, s, s + len);
    const n = this.defined[ns];
    if (n >= this.ids[ns].length) this.ids[ns] = growAtLeast(this.ids[ns], n + 1);
    this.ids[ns][n] = id;
    this.defined[ns] = n + 1;
  }

  /** A commit set: a count, then that many distinct variable ids. */
  private set(out: number[]): void {
    out.length = 0;
    const at = this.p;
    const n = this.varint();
    if (n > this.defined[NS_VARIABLE]) {
      this.fail(
        at,
        `expected a commit set of at most the ${this.defined[NS_VARIABLE]} variables defined so far, found a count of ${n}`,
      );
    }
    const stamp = ++this.sets;
    for (let j = 0; j < n; j++) {
      const vat = this.p;
      const v = this.id(NS_VARIABLE);
      if (v >= this.seenIn.length) this.seenIn = growAtLeast(this.seenIn, v + 1);
      if (this.seenIn[v] === stamp)
        this.fail(
          vat,
          `expected distinct variables in a commit set, found ${this.symbols.variables.name(v)} twice`,
        );
      this.seenIn[v] = stamp;
      out.push(v);
    }
  }

  /** A file id of namespace `ns`. @returns its Symbols id. */
  private id(ns: number): number {
    const at = this.p;
    const x = this.varint();
    if (x >= this.defined[ns]) this.undefinedId(at, ns, x);
    return this.ids[ns][x];
  }

  private undefinedId(at: number, ns: number, x: number): never {
    const n = this.defined[ns];
    this.fail(
      at,
      `expected a ${NS_NAMES[ns]} id defined by an earlier record (${n === 0 ? 'none is defined yet' : `0..${n - 1}`}), found ${x}`,
    );
  }

  private byte(): number {
    if (this.p >= this.end) throw INCOMPLETE;
    return this.buf[this.p++];
  }

  /** An unsigned LEB128 varint below 2^31 (at most 5 bytes). */
  private varint(): number {
    const p = this.p;
    if (p < this.end) {
      const b = this.buf[p];
      if (b < 0x80) {
        this.p = p + 1;
        return b;
      }
    }
    return this.varintLong();
  }

  /** {@link varint} when it is longer than a byte, or at the end of the input. */
  private varintLong(): number {
    const buf = this.buf;
    const end = this.end;
    let p = this.p;
    if (p >= end) throw INCOMPLETE;
    let b = buf[p++];
    let x = b & 0x7f;
    for (let shift = 7; b >= 0x80; shift += 7) {
      if (p >= end) throw INCOMPLETE;
      b = buf[p++];
      if (shift === 28 && b > 0x07) this.tooLong(p - 1);
      x |= (b & 0x7f) << shift;
    }
    this.p = p;
    return x;
  }

  private tooLong(at: number): never {
    this.fail(at, `expected a varint below 2^31 (the 5th byte at most 0x07), found 0x${hex(this.buf[at])}`);
  }

  /** Throws a TraceError at buffer position `at` of the current record. */
  private fail(at: number, expected: string): never {
    const from = Math.max(this.start, at - (DUMP_BYTES >> 1));
    const to = Math.min(this.end, from + DUMP_BYTES);
    const bytes: string[] = [];
    for (let i = from; i < to; i++) bytes.push(hex(this.buf[i]));
    const record = this.headerRead ? this.records + 1 : 0;
    throw new TraceError(
      this.file,
      record,
      3 * (at - from) + 1,
      bytes.join(' '),
      expected,
      'syntax',
      this.offset + (at - this.base),
    );
  }
}

/**
 * The unsigned LEB128 varint at `buf[q]` if it has at most 4 bytes (a value below 2^28), as `(value << 3) | its
 * byte length`; -1 if it is longer (left to the general reader). The bytes must be in `buf`.
 */
function shortVarint(buf: Uint8Array, q: number): number {
  let b = buf[q];
  if (b < 0x80) return (b << 3) | 1;
  let x = b & 0x7f;
  b = buf[q + 1];
  x |= (b & 0x7f) << 7;
  if (b < 0x80) return (x << 3) | 2;
  b = buf[q + 2];
  x |= (b & 0x7f) << 14;
  if (b < 0x80) return (x << 3) | 3;
  b = buf[q + 3];
  x |= (b & 0x7f) << 21;
  if (b < 0x80) return (x << 3) | 4;
  return -1;
}

function hex(b: number): string {
  return b.toString(16).padStart(2, '0');
}
