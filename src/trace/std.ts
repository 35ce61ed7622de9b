import { TraceError } from '../model/errors.js';
import {
  ACQUIRE,
  ALLOC,
  ATOMIC_DATA_READ,
  ATOMIC_DATA_WRITE,
  ATOMIC_READ,
  ATOMIC_RMW,
  ATOMIC_WRITE,
  BEGIN,
  DUMMY,
  END,
  ENTER,
  type EventBatch,
  EXIT,
  FORK,
  JOIN,
  NOTIFY,
  READ,
  RELEASE,
  RMW,
  VOLATILE_READ,
  VOLATILE_WRITE,
  WAIT,
  WRITE,
} from '../model/events.js';
import { grow } from '../model/interner.js';
import type { Symbols } from '../model/symbols.js';
import type { TraceParser } from './parser.js';

const PIPE = 0x7c;
const LPAREN = 0x28;
const RPAREN = 0x29;
const EQ = 0x3d;
const CR = 0x0d;
const NL = 0x0a;
const HASH = 0x23;
const COMMA = 0x2c;
const R = 0x72;
const W = 0x77;
const SEMI = 0x3b;
const A = 0x61;
const C = 0x63;
const E = 0x65;
const L = 0x6c;
const Q = 0x71;

/** Namespaces an operation's argument lives in. */
const NS_VAR = 0;
const NS_LOCK = 1;
const NS_VOLATILE = 2;
const NS_THREAD = 3;
const NS_OBJECT = 4;
const NS_MARKER = 5;
const NS_COMMIT = 6;
/** `ard(X,V)` / `awd(X,V)`: a variable and an atomic location (volatile namespace). */
const NS_ATOMIC_DATA = 7;

interface OpSpec {
  kind: number;
  ns: number;
  /** Whether the parenthesised argument may be absent (markers). */
  optionalArg: boolean;
  /** Whether `=value` may follow (r, w). */
  value: boolean;
  /** Part of RAPID's STD set. */
  std: boolean;
}

const OPS: Record<string, OpSpec> = {
  r: { kind: READ, ns: NS_VAR, optionalArg: false, value: true, std: true },
  w: { kind: WRITE, ns: NS_VAR, optionalArg: false, value: true, std: true },
  acq: { kind: ACQUIRE, ns: NS_LOCK, optionalArg: false, value: false, std: true },
  rel: { kind: RELEASE, ns: NS_LOCK, optionalArg: false, value: false, std: true },
  fork: { kind: FORK, ns: NS_THREAD, optionalArg: false, value: false, std: true },
  join: { kind: JOIN, ns: NS_THREAD, optionalArg: false, value: false, std: true },
  begin: { kind: BEGIN, ns: NS_MARKER, optionalArg: true, value: false, std: true },
  end: { kind: END, ns: NS_MARKER, optionalArg: true, value: false, std: true },
  dummy: { kind: DUMMY, ns: NS_MARKER, optionalArg: true, value: false, std: true },
  vr: { kind: VOLATILE_READ, ns: NS_VOLATILE, optionalArg: false, value: false, std: false },
  vw: { kind: VOLATILE_WRITE, ns: NS_VOLATILE, optionalArg: false, value: false, std: false },
  rmw: { kind: RMW, ns: NS_VOLATILE, optionalArg: false, value: false, std: false },
  ar: { kind: ATOMIC_READ, ns: NS_VOLATILE, optionalArg: false, value: false, std: false },
  aw: { kind: ATOMIC_WRITE, ns: NS_VOLATILE, optionalArg: false, value: false, std: false },
  armw: { kind: ATOMIC_RMW, ns: NS_VOLATILE, optionalArg: false, value: false, std: false },
  ard: { kind: ATOMIC_DATA_READ, ns: NS_ATOMIC_DATA, optionalArg: false, value: false, std: false },
  awd: { kind: ATOMIC_DATA_WRITE, ns: NS_ATOMIC_DATA, optionalArg: false, value: false, std: false },
  alloc: { kind: ALLOC, ns: NS_OBJECT, optionalArg: false, value: false, std: false },
  commit: { kind: -1, ns: NS_COMMIT, optionalArg: false, value: false, std: false },
  wait: { kind: WAIT, ns: NS_LOCK, optionalArg: false, value: false, std: false },
  notify: { kind: NOTIFY, ns: NS_LOCK, optionalArg: false, value: false, std: false },
  enter: { kind: ENTER, ns: NS_MARKER, optionalArg: false, value: false, std: false },
  exit: { kind: EXIT, ns: NS_MARKER, optionalArg: false, value: false, std: false },
};

/** Keyword lookup by the bytes of the op name (names are 1..6 ASCII letters). */
function keywordKey(buf: Uint8Array, s: number, e: number): number {
  let k = 0;
  for (let i = s; i < e; i++) k = k * 128 + buf[i];
  return k;
}
/** Bytes that end a name on the fast path: '|', LF, CR (each line of `parseSimpleLines` ends with a LF). */
const STOP = new Uint8Array(256);
STOP[PIPE] = 1;
STOP[NL] = 1;
STOP[CR] = 1;
const KEYWORDS = new Map<number, OpSpec>();
/** The keywords of one or two letters (r, w, vr, vw, ar, aw) by key, for the fast path: an array index. */
const SHORT_KEYWORDS: (OpSpec | undefined)[] = new Array(128 * 128);
for (const [name, spec] of Object.entries(OPS)) {
  const b = Buffer.from(name, 'latin1');
  const k = keywordKey(b, 0, b.length);
  KEYWORDS.set(k, spec);
  if (k < SHORT_KEYWORDS.length) SHORT_KEYWORDS[k] = spec;
}

/**
 * Parser of RAPID's STD format and of Goldilocks' extended format (a superset): one event per line,
 * `THREAD|OP|LOC`. Grammar and meaning: docs/FORMATS.md. With `strict` (format `std`) only RAPID's
 * operations are accepted (r, w, acq, rel, fork, join, begin, end, dummy) and no `=value`.
 *
 * Differences from RAPID (../shared/traces/PROVENANCE.md; RAPID's parse/std/Parse.java): a malformed line is
 * an error here (RAPID re-emits the previous event); blank lines, and in the extended format `#` comment
 * lines, are skipped and counted; LOC may be any text without `|`, including empty.
 */
export class StdParser implements TraceParser {
  readonly skipped = new Map<string, number>();
  private lineNo = 0;
  private readonly reads: number[] = [];
  private readonly writes: number[] = [];
  /**
   * The thread of the last line the fast path parsed and the first `lastThreadLength` bytes of
   * `lastThreadName`, its name (length 0: none; names longer than the buffer are not kept).
   */
  private lastThread = -1;
  private readonly lastThreadName = new Uint8Array(64);
  private lastThreadLength = 0;
  /**
   * Location ids of the locations that are decimal numbers (RAPID's STD files have only those), by number: id + 1, 0
   * = not yet seen. The fast path takes the id from here instead of a probe of the interner; the ids are the
   * interner's (a number is interned once, when first seen), so events are the same either way.
   */
  private locationByNumber = new Int32Array(0);

  /**
   * {@link locationByNumber} is allocated as it grows, so that the field is written twice before any code runs (V8
   * then compiles no code that relies on its first value: docs/ARCHITECTURE.md, "Tables that grow").
   */
  constructor(
    private readonly symbols: Symbols,
    private readonly file: string,
    private readonly strict: boolean,
  ) {
    this.locationByNumber = grow(this.locationByNumber, 1024);
  }

  get format(): string {
    return this.strict ? 'std' : 'ext';
  }

  parse(buf: Buffer, pos: number, end: number, eof: boolean, batch: EventBatch): number {
    // The lines up to the last newline of the range are whole: the fast path's scans stop at that newline.
    const whole = end > pos ? buf.lastIndexOf(NL, end - 1) + 1 : pos;
    while (pos < end && batch.length < batch.capacity) {
      if (pos < whole) {
        pos = this.parseSimpleLines(buf, pos, whole, batch);
        if (batch.length >= batch.capacity) break;
      }
      if (pos >= end) break;
      // A line the fast path does not take (or the unfinished last one): the general parser.
      let nl = buf.indexOf(NL, pos);
      let next = nl + 1;
      if (nl < 0 || nl >= end) {
        if (!eof) break;
        nl = end;
        next = end;
      }
      let le = nl;
      if (le > pos && buf[le - 1] === CR) le--;
      this.lineNo++;
      this.parseLine(buf, pos, le, batch);
      pos = next;
    }
    // `pos` as it is (at most `end`), no comparison: V8 compiles this loop on the stack (OSR) before it first ends, and
    // an operation after the loop without type feedback (a comparison, or `Math.min`) then sent every later call back
    // to unoptimized code on leaving the loop (81 deoptimizations on the 2M-event realistic trace, `--trace-deopt`;
    // issue 24 §3)
    return pos;
  }

  get lines(): number {
    return this.lineNo;
  }

  finish(): void {}

  /**
   * The fast path for the common lines `THREAD|OP(ARG)|LOC` (no value; LF or CRLF) in `buf[pos, whole)`, which ends
   * with a newline, whose thread and lock or volatile are interned already: OP is r, w, acq, rel or one of the other
   * keywords of two letters (vr, vw, ar, aw). One pass forward over the line: THREAD (recognised without a lookup when
   * equal to the previous line's), OP, ARG up to the line's first `|` after it (a name interned holds no `|`), whose
   * previous byte must be `)`, and LOC to the newline. ARG and LOC are looked up ({@link Interner.find}: the interner
   * hashes a name from its length and first and last bytes), a LOC that is a decimal number by
   * {@link locationByNumber}; a variable or location not yet interned is interned here, in the slot its lookup found
   * free (`addMissed`), once the whole line is checked: a trace's first lines name new variables and locations at
   * almost every line (about 5,000 new names in the first 4,096 lines of the 2M-event realistic trace), which
   * the general parser took at about twice the work, in code not yet optimized (issue 24 §3). Stops at the first
   * other line — a thread, lock or volatile not yet interned, another keyword, a fourth field, and every malformed
   * line — and leaves it to the general parser (`parseLine`), which interns its names and gives the errors; the events
   * and ids are the same as parseLine's (names are interned in the order of their first occurrence either way).
   * The rare keywords and new threads, locks and volatiles are left out, so that the loop stays small, and a path
   * first taken after its compilation (the first acquire) does not send it back to unoptimized code for a new
   * compilation (issue 24 §3: four compilations of 60–90 ms each on a 1M-event trace with all of interning in the loop,
   * before the growing tables' fields were written twice: docs/ARCHITECTURE.md, "Tables that grow");
   * test/cli/recompile.test.ts counts its deoptimizations.
   * @returns the position of the first line not parsed (`whole` if all were, or the batch is full before).
   */
  private parseSimpleLines(buf: Buffer, pos: number, whole: number, batch: EventBatch): number {
    const s = this.symbols;
    const threads = s.threads;
    const variables = s.variables;
    const locations = s.locations;
    const { kind, thread: threadOf, target, loc: locOf, value, line } = batch;
    const capacity = batch.capacity;
    const strict = this.strict;
    let byNumber = this.locationByNumber;
    let n = batch.length;
    let lineNo = this.lineNo;
    let thread = this.lastThread;
    const name = this.lastThreadName;
    let nameLength = this.lastThreadLength;
    while (pos < whole && n < capacity) {
      let i = pos;
      // THREAD: the previous line's, or scanned and looked up.
      let j = 0;
      if (nameLength > 0) while (j < nameLength && buf[pos + j] === name[j]) j++;
      if (j === nameLength && nameLength > 0 && buf[pos + nameLength] === PIPE) i = pos + nameLength;
      else {
        let b = buf[i];
        while (STOP[b] === 0) b = buf[++i];
        if (b !== PIPE || i === pos) break;
        const th = threads.find(buf, pos, i);
        if (th < 0) break;
        thread = th;
        nameLength = i - pos <= name.length ? i - pos : 0;
        for (let q = 0; q < nameLength; q++) name[q] = buf[pos + q];
      }
      // OP: a keyword and '('; r and w (most lines) first.
      let opKind: number;
      let ns: number;
      const c = buf[++i];
      const c1 = buf[i + 1];
      if ((c === R || c === W) && c1 === LPAREN) {
        opKind = c === R ? READ : WRITE;
        ns = NS_VAR;
        i++;
      } else if (c === A && c1 === C && buf[i + 2] === Q && buf[i + 3] === LPAREN) {
        opKind = ACQUIRE;
        ns = NS_LOCK;
        i += 3;
      } else if (c === R && c1 === E && buf[i + 2] === L && buf[i + 3] === LPAREN) {
        opKind = RELEASE;
        ns = NS_LOCK;
        i += 3;
      } else {
        const k = c * 128 + c1;
        const spec = c1 !== LPAREN && c1 < 128 && k < SHORT_KEYWORDS.length ? SHORT_KEYWORDS[k] : undefined;
        if (spec === undefined || (strict && !spec.std) || buf[i + 2] !== LPAREN) break;
        opKind = spec.kind;
        ns = spec.ns;
        i += 2;
      }
      // ARG: to the first '|' after '(', which must follow a ')'.
      const as = i + 1;
      let p2 = as;
      let b = buf[p2];
      while (b !== PIPE && b !== NL) b = buf[++p2];
      if (b !== PIPE || p2 <= as + 1 || buf[p2 - 1] !== RPAREN) break;
      // LOC: a decimal number, or any other text without '|', to the newline (and a CR before it)
      const ls = p2 + 1;
      let q = ls;
      let num = 0;
      b = buf[q];
      while (b >= 0x30 && b <= 0x39) {
        num = num * 10 + (b - 0x30);
        b = buf[++q];
      }
      let le = q;
      let nl = q;
      let lid: number;
      if (b === NL || (b === CR && buf[q + 1] === NL)) {
        if (b === CR) nl++;
        const digits = le - ls;
        lid =
          digits === 0
            ? 0
            : digits <= 6 && (buf[ls] !== 0x30 || digits === 1) && num < byNumber.length
              ? byNumber[num] - 1
              : -1;
        if (lid < 0) {
          lid = this.locationByNumberMissed(buf, ls, le, num);
          byNumber = this.locationByNumber;
        }
      } else {
        while (b !== NL && b !== PIPE) b = buf[++q];
        if (b === PIPE) break;
        nl = q;
        le = buf[nl - 1] === CR ? nl - 1 : nl;
        lid = locations.find(buf, ls, le);
        if (lid < 0) lid = locations.addMissed(buf, ls, le);
      }
      let x: number;
      if (ns === NS_VAR) {
        x = variables.find(buf, as, p2 - 1);
        if (x < 0) x = s.newVariable(buf, as, p2 - 1);
      } else {
        x = ns === NS_LOCK ? s.locks.find(buf, as, p2 - 1) : s.volatiles.find(buf, as, p2 - 1);
        if (x < 0) break;
      }
      kind[n] = opKind;
      threadOf[n] = thread;
      target[n] = x;
      locOf[n] = lid;
      value[n] = -1;
      line[n] = ++lineNo;
      n++;
      pos = nl + 1;
    }
    batch.length = n;
    this.lineNo = lineNo;
    this.lastThread = thread;
    this.lastThreadLength = nameLength;
    return pos;
  }

  /**
   * The id of location `buf[s, e)`, a decimal number `num` which {@link locationByNumber} does not hold: looked up in
   * the interner, interned if new, and entered in the table (grown to hold it) when it has at most 6 digits and no
   * leading zero.
   * @returns its id.
   */
  private locationByNumberMissed(buf: Buffer, s: number, e: number, num: number): number {
    const locations = this.symbols.locations;
    let id = locations.find(buf, s, e);
    if (id < 0) id = locations.addMissed(buf, s, e);
    if (e - s > 6 || (buf[s] === 0x30 && e - s > 1)) return id;
    if (num >= this.locationByNumber.length) {
      let cap = this.locationByNumber.length * 2;
      while (cap <= num) cap *= 2;
      this.locationByNumber = grow(this.locationByNumber, cap);
    }
    this.locationByNumber[num] = id + 1;
    return id;
  }

  private skip(reason: string): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
  }

  private error(buf: Buffer, ls: number, le: number, at: number, expected: string): never {
    const text = buf.toString('utf8', ls, le);
    const col = Buffer.byteLength(buf.toString('utf8', ls, Math.min(at, le))) + 1;
    throw new TraceError(this.file, this.lineNo, col, text, expected);
  }

  private parseLine(buf: Buffer, ls: number, le: number, batch: EventBatch): void {
    if (ls === le) {
      this.skip('blank line');
      return;
    }
    if (!this.strict && buf[ls] === HASH) {
      this.skip('comment');
      return;
    }
    const p1 = buf.indexOf(PIPE, ls);
    if (p1 < 0 || p1 >= le) this.error(buf, ls, le, le, "expected 'THREAD|OP|LOC': no '|' on the line");
    if (p1 === ls) this.error(buf, ls, le, ls, 'expected a thread name before the first |');
    const p2 = buf.indexOf(PIPE, p1 + 1);
    if (p2 < 0 || p2 >= le)
      this.error(buf, ls, le, le, "expected a second '|' before the location (THREAD|OP|LOC)");
    const p3 = buf.indexOf(PIPE, p2 + 1);
    if (p3 >= 0 && p3 < le)
      this.error(buf, ls, le, p3, "expected exactly three fields THREAD|OP|LOC, found a third '|'");
    const s = this.symbols;
    const thread = s.threads.internBytes(buf, ls, p1);
    const loc = p2 + 1 === le ? 0 : s.locations.internBytes(buf, p2 + 1, le);

    // OP: keyword, optional (ARG), optional =VALUE
    const os = p1 + 1;
    const oe = p2;
    let kwEnd = os;
    while (kwEnd < oe && buf[kwEnd] !== LPAREN) kwEnd++;
    const spec = kwEnd - os <= 6 ? KEYWORDS.get(keywordKey(buf, os, kwEnd)) : undefined;
    if (spec === undefined || (this.strict && !spec.std)) {
      this.error(
        buf,
        ls,
        le,
        os,
        this.strict
          ? 'expected an operation r(X), w(X), acq(L), rel(L), fork(T), join(T), begin, end or dummy'
          : 'expected an operation r, w, acq, rel, fork, join, vr, vw, rmw, ar, aw, armw, ard, awd, alloc, commit, wait, notify, enter, exit, begin, end or dummy',
      );
    }
    let argS = -1;
    let argE = -1;
    let value = -1;
    if (kwEnd === oe) {
      if (!spec.optionalArg)
        this.error(buf, ls, le, kwEnd, `expected '(' and an argument after '${keywordName(spec)}'`);
    } else {
      const close = buf.lastIndexOf(RPAREN, oe - 1);
      if (close < kwEnd) this.error(buf, ls, le, oe, "expected ')' closing the argument");
      if (close + 1 < oe) {
        if (buf[close + 1] !== EQ || !spec.value || this.strict) {
          this.error(
            buf,
            ls,
            le,
            close + 1,
            spec.value && !this.strict ? "expected '|' or '=VALUE' after ')'" : "expected '|' after ')'",
          );
        }
        if (close + 2 === oe) this.error(buf, ls, le, oe, "expected a value after '='");
        value = s.values.internBytes(buf, close + 2, oe);
      }
      argS = kwEnd + 1;
      argE = close;
      if (argS === argE && spec.ns !== NS_COMMIT)
        this.error(buf, ls, le, argS, 'expected a non-empty argument inside ( )');
    }
    if (spec.ns === NS_COMMIT) this.parseCommit(buf, ls, le, argS, argE, thread, loc, batch);
    else if (spec.ns === NS_ATOMIC_DATA) {
      const comma = buf.lastIndexOf(COMMA, argE - 1);
      if (comma < argS)
        this.error(
          buf,
          ls,
          le,
          argE,
          `expected '${keywordName(spec)}(VARIABLE,LOCATION)': no ',' before the atomic location`,
        );
      if (comma === argS) this.error(buf, ls, le, argS, "expected a variable name before the ','");
      if (comma + 1 === argE) this.error(buf, ls, le, argE, "expected an atomic location after the ','");
      const x = this.argument(NS_VAR, buf, argS, comma);
      const v = this.argument(NS_VOLATILE, buf, comma + 1, argE);
      batch.push(spec.kind, thread, x, loc, v, this.lineNo);
    } else {
      const arg = argS < 0 ? -1 : this.argument(spec.ns, buf, argS, argE);
      batch.push(spec.kind, thread, arg, loc, value, this.lineNo);
    }
  }

  /** Interns an operation's argument `buf[s, e)` in its namespace. @returns its id. */
  private argument(ns: number, buf: Buffer, s: number, e: number): number {
    const sym = this.symbols;
    switch (ns) {
      case NS_VAR:
        return sym.variable(buf, s, e);
      case NS_LOCK:
        return sym.locks.internBytes(buf, s, e);
      case NS_VOLATILE:
        return sym.volatiles.internBytes(buf, s, e);
      case NS_THREAD:
        return sym.threads.internBytes(buf, s, e);
      case NS_OBJECT:
        return sym.allocObject(buf, s, e);
      default:
        return sym.markers.internBytes(buf, s, e);
    }
  }

  /** `commit(x,y;z)`: read set {x,y}, write set {z}; either side may be empty. */
  private parseCommit(
    buf: Buffer,
    ls: number,
    le: number,
    s0: number,
    e0: number,
    thread: number,
    loc: number,
    batch: EventBatch,
  ): void {
    const semi = buf.indexOf(SEMI, s0);
    if (semi < 0 || semi >= e0)
      this.error(buf, ls, le, e0, "expected 'commit(READS;WRITES)': no ';' between the read and write sets");
    this.reads.length = 0;
    this.writes.length = 0;
    this.names(buf, ls, le, s0, semi, this.reads);
    this.names(buf, ls, le, semi + 1, e0, this.writes);
    batch.pushCommit(thread, this.reads, this.writes, loc, this.lineNo);
  }

  private names(buf: Buffer, ls: number, le: number, s: number, e: number, out: number[]): void {
    if (s === e) return;
    let i = s;
    for (;;) {
      let j = i;
      while (j < e && buf[j] !== COMMA && buf[j] !== SEMI) j++;
      if (j < e && buf[j] === SEMI) this.error(buf, ls, le, j, "expected one ';' in commit(READS;WRITES)");
      if (j === i) this.error(buf, ls, le, i, 'expected a variable name in the commit set');
      const v = this.symbols.variable(buf, i, j);
      if (!out.includes(v)) out.push(v);
      if (j === e) return;
      i = j + 1;
    }
  }
}

function keywordName(spec: OpSpec): string {
  for (const [k, v] of Object.entries(OPS)) if (v === spec) return k;
  return '?';
}
