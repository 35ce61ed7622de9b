import { growFilled as growI, Interner, type InternerChanges } from './interner.js';

/** Variables and objects the tables hold before they first grow. */
const INITIAL_CAPACITY = 1024;

/**
 * The symbol tables of one trace: every name the trace uses, interned to dense ids per namespace.
 *
 * Variables also carry the object they belong to (DESIGN.md, "Variable names carry object identity"):
 * - `a[3]`, `@7[3]`: element 3 of array `a` / `@7` (object `a` / `@7`, `arrayIndex` 3);
 * - `pkg.Class.f@12`: instance field `f` of object `@12` (RoadRunner's naming);
 * - `o.f`, `V35f483ee.1527`, `pkg.Class.f`: field of the object named by the text before the last `.`;
 * - `@03.test/Test.x_I` (RoadRunner's print format): field of object `@03`; `null.test/Test.cnt_I`, a static
 *   field there, belongs to the class `test/Test`;
 * - `x` (no `.`, `@` or `[..]`): a variable that is its own object.
 * `alloc(o)` names an object with the same spelling (`alloc(@12)`, `alloc(a)`, `alloc(o)`).
 */
export class Symbols {
  readonly threads = new Interner();
  readonly variables = new Interner();
  readonly locks = new Interner();
  readonly volatiles = new Interner();
  readonly objects = new Interner();
  readonly locations = new Interner();
  readonly values = new Interner();
  /** Names of method-entry/exit and other markers. */
  readonly markers = new Interner();
  /** Object id of each variable. */
  variableObject: Int32Array = new Int32Array(0);
  /** Array element index of each variable, or -1 for a field. */
  variableArrayIndex: Float64Array = new Float64Array(0);
  /** Variables of each object as singly linked lists: head per object, next per variable (-1 ends). */
  objectFirstVariable: Int32Array = new Int32Array(0);
  variableNextInObject: Int32Array = new Int32Array(0);
  /** The variables' size at the last {@link takeChanges}. */
  private variablesTaken = 0;

  /**
   * The per-variable and per-object arrays are allocated by the methods that grow them, so that each field is written
   * twice before any code runs (V8 then compiles no code that relies on its first value: docs/ARCHITECTURE.md, "Tables
   * that grow").
   */
  constructor() {
    this.variablesCover(INITIAL_CAPACITY);
    this.objectsCover(INITIAL_CAPACITY);
    this.locations.intern('');
  }

  /** Interns a variable name from bytes, recording its object on first sight. */
  variable(buf: Uint8Array, start: number, end: number): number {
    const before = this.variables.size;
    const id = this.variables.internBytes(buf, start, end);
    if (id === before) this.describeVariable(id, buf, start, end);
    return id;
  }

  /**
   * Interns the variable name `buf[start, end)` that `variables.find` has just missed (see {@link Interner.addMissed}),
   * recording its object. @returns its new id.
   */
  newVariable(buf: Uint8Array, start: number, end: number): number {
    const id = this.variables.addMissed(buf, start, end);
    this.describeVariable(id, buf, start, end);
    return id;
  }

  /** Interns a variable name given as a string. */
  variableNamed(name: string): number {
    const b = Buffer.from(name, 'utf8');
    return this.variable(b, 0, b.length);
  }

  /** The object span and array index of the variable being described ({@link splitVariable}). */
  private readonly split = new Float64Array(3);

  private describeVariable(id: number, buf: Uint8Array, start: number, end: number): void {
    const split = this.split;
    splitVariable(buf, start, end, split);
    const obj = this.objects.internBytes(buf, split[0], split[1]);
    const index = split[2];
    this.variablesCover(id + 1);
    this.objectsCover(obj + 1);
    this.variableObject[id] = obj;
    this.variableArrayIndex[id] = index;
    this.variableNextInObject[id] = this.objectFirstVariable[obj];
    this.objectFirstVariable[obj] = id;
  }

  /** The interners, in the order of {@link SymbolsChanges.tables}. */
  private interners(): Interner[] {
    return [
      this.threads,
      this.variables,
      this.locks,
      this.volatiles,
      this.objects,
      this.locations,
      this.values,
      this.markers,
    ];
  }

  /** Starts logging the names interned, for {@link takeChanges} (`Interner.trackChanges`). */
  trackChanges(): void {
    for (const t of this.interners()) t.trackChanges();
    this.variablesTaken = this.variables.size;
  }

  /**
   * The names interned since {@link trackChanges} or the last call, and the objects of the new variables, as data that
   * a copy of these tables at that point turns into a copy of them now ({@link applyChanges}; trace/pipeline.ts posts
   * it from the parser thread). @throws Error if changes are not tracked.
   */
  takeChanges(): SymbolsChanges {
    const from = this.variablesTaken;
    const n = this.variables.size;
    this.variablesTaken = n;
    return {
      tables: this.interners().map((t) => t.takeChanges()),
      variableObject: this.variableObject.slice(from, n),
      variableArrayIndex: this.variableArrayIndex.slice(from, n),
      variableNextInObject: this.variableNextInObject.slice(from, n),
      objectFirstVariable: from < n ? this.objectFirstVariable.slice(0, this.objects.size) : undefined,
    };
  }

  /**
   * Makes these tables, a copy of the ones `changes` were taken from as they were then, a copy of them as they were
   * when taken (`Interner.applyChanges`), without interning a name. @throws Error if they were not such a copy.
   */
  applyChanges(changes: SymbolsChanges): void {
    const from = this.variables.size;
    this.interners().forEach((t, k) => {
      t.applyChanges(changes.tables[k]);
    });
    this.variablesCover(this.variables.size);
    this.variableObject.set(changes.variableObject, from);
    this.variableArrayIndex.set(changes.variableArrayIndex, from);
    this.variableNextInObject.set(changes.variableNextInObject, from);
    const heads = changes.objectFirstVariable;
    if (heads !== undefined) {
      this.objectsCover(heads.length);
      this.objectFirstVariable.set(heads);
    }
  }

  /** Ensures `objectFirstVariable` covers object ids interned directly (by `alloc`). */
  objectCapacity(): number {
    this.objectsCover(this.objects.size);
    return this.objectFirstVariable.length;
  }

  /** Grows the per-variable arrays (at least doubling) to hold `n` variables. */
  private variablesCover(n: number): void {
    if (n <= this.variableObject.length) return;
    const cap = Math.max(n, this.variableObject.length * 2);
    this.variableObject = growI(this.variableObject, cap, 0);
    this.variableNextInObject = growI(this.variableNextInObject, cap, -1);
    const a = new Float64Array(cap);
    a.set(this.variableArrayIndex);
    this.variableArrayIndex = a;
  }

  /** Grows `objectFirstVariable` (at least doubling) to hold `n` objects. */
  private objectsCover(n: number): void {
    if (n > this.objectFirstVariable.length)
      this.objectFirstVariable = growI(
        this.objectFirstVariable,
        Math.max(n, this.objectFirstVariable.length * 2),
        -1,
      );
  }
}

const DOT = 0x2e;
const AT = 0x40;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const NULL_DOT = [0x6e, 0x75, 0x6c, 0x6c, DOT]; // 'null.'

/** Whether `buf[s, e)` is one or more ASCII digits. */
function digits(buf: Uint8Array, s: number, e: number): boolean {
  if (s >= e) return false;
  for (let i = s; i < e; i++) if (buf[i] < 0x30 || buf[i] > 0x39) return false;
  return true;
}

/** Whether `buf` holds the bytes `prefix` from `s` on (a loop: no closure per call, as `every` would make). */
function startsWith(buf: Uint8Array, s: number, prefix: readonly number[]): boolean {
  for (let k = 0; k < prefix.length; k++) if (buf[s + k] !== prefix[k]) return false;
  return true;
}

function isHexDigit(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/** The last `byte` in `buf[s, e)`, or -1 (bounded: TypedArray#lastIndexOf would scan on before `s`, through the input). */
function lastIndexOf(buf: Uint8Array, s: number, e: number, byte: number): number {
  for (let i = e - 1; i >= s; i--) if (buf[i] === byte) return i;
  return -1;
}

/**
 * Splits the variable name `buf[s, e)` (UTF-8) into its object and array index (the rules of {@link Symbols}, in this
 * order: `a[3]`; `@03.f` (RoadRunner print); `null.C.f` (static field of class C); `C.f@12`; `o.f`; `x`). The object
 * is always a contiguous part of the name. Works on the bytes: the delimiters are ASCII, which no byte of a
 * multi-byte UTF-8 character equals.
 * @param out receives the object's byte range `[out[0], out[1])` in `buf` and the array index `out[2]` (-1 for a
 *   field; a decimal index of more than 15 digits is converted as `Number` converts its text).
 */
export function splitVariable(buf: Uint8Array, s: number, e: number, out: Float64Array): void {
  out[0] = s;
  out[1] = e;
  out[2] = -1;
  if (e - s >= 2 && buf[e - 1] === RBRACKET) {
    const open = lastIndexOf(buf, s, e, LBRACKET);
    if (open > s && digits(buf, open + 1, e - 1)) {
      out[1] = open;
      let index = 0;
      if (e - 1 - (open + 1) <= 15)
        for (let i = open + 1; i < e - 1; i++) index = index * 10 + (buf[i] - 0x30);
      else
        index = Number(Buffer.from(buf.buffer, buf.byteOffset + open + 1, e - open - 2).toString('latin1'));
      out[2] = index;
      return;
    }
  }
  if (buf[s] === AT && s + 1 < e && isHexDigit(buf[s + 1])) {
    let i = s + 2;
    while (i < e && isHexDigit(buf[i])) i++;
    if (i < e && buf[i] === DOT) {
      out[1] = i;
      return;
    }
  }
  const dot = lastIndexOf(buf, s, e, DOT);
  if (e - s >= NULL_DOT.length && startsWith(buf, s, NULL_DOT) && dot > s + 5) {
    out[0] = s + 5;
    out[1] = dot;
    return;
  }
  const at = lastIndexOf(buf, s, e, AT);
  if (at > s && at < e - 1 && digits(buf, at + 1, e)) {
    out[0] = at;
    return;
  }
  if (dot > s) out[1] = dot;
}

/**
 * What {@link Symbols.takeChanges} gives: per interner (threads, variables, locks, volatiles, objects, locations, values,
 * markers) its changes, and the object, array index and next variable in the object of each new variable, with the
 * first variable of every object (`undefined` when no variable is new).
 */
export interface SymbolsChanges {
  tables: InternerChanges[];
  variableObject: Int32Array;
  variableArrayIndex: Float64Array;
  variableNextInObject: Int32Array;
  objectFirstVariable: Int32Array | undefined;
}
