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
 *
 * Variables are described (split into object and index, their object interned) lazily, in id order, only where a
 * description is used ({@link describeUpTo}: Eraser, skip lists, `alloc`): a trace names a new variable at almost every
 * one of its first lines, and describing each as it was interned cost about 4% of the instructions of checking the
 * 2M-event realistic trace, most of them in code not yet optimized (issue 24 §3; cachegrind, read in one thread). Object ids stay those of describing every variable as it is interned (dense,
 * in the order of first naming, by a variable or an `alloc`): variable ids are dense in first-appearance order, so at
 * the first `alloc` of an object ({@link allocObject}) the variables interned so far are described first, then its
 * object is interned. A parser thread that only tracks its changes for another thread ({@link trackChanges})
 * interns no object at all: it keeps an `alloc`'s object as an alloc name with the variable count at its first sight
 * ({@link allocNames}), which the other thread turns into an object id in the same order ({@link resolveAllocNames}).
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
  /**
   * Objects named by `alloc` in a parser thread that tracks its changes ({@link trackChanges}), where no object is
   * interned; by the other thread, a copy of the parser thread's ({@link applyChanges}).
   */
  readonly allocNames = new Interner();
  /** Per alloc name: the number of variables interned when it was first named ({@link allocObject}). */
  private allocMarks: Int32Array = new Int32Array(0);
  /** Per alloc name resolved so far ({@link resolveAllocNames}): its object id. */
  private allocObjectIds: Int32Array = new Int32Array(0);
  /** Alloc names whose object id is known (`allocObjectIds`), and those whose marks were taken ({@link takeChanges}). */
  private allocResolved = 0;
  private allocMarksTaken = 0;
  /** Whether `alloc` objects are kept as alloc names (a parser thread that tracks its changes). */
  private deferAllocs = false;
  /** Variables described so far: ids `[0, described)` have their object, array index and place in their object's list. */
  private described = 0;
  /** Object id of each described variable ({@link objectOf} describes it first). */
  variableObject: Int32Array = new Int32Array(0);
  /** Array element index of each described variable, or -1 for a field. */
  variableArrayIndex: Float64Array = new Float64Array(0);
  /** Variables of each object as singly linked lists: head per object, next per variable (-1 ends). */
  objectFirstVariable: Int32Array = new Int32Array(0);
  variableNextInObject: Int32Array = new Int32Array(0);

  /**
   * The per-variable and per-object arrays are allocated by the methods that grow them, so that each field is written
   * twice before any code runs (V8 then compiles no code that relies on its first value: docs/ARCHITECTURE.md, "Tables
   * that grow").
   */
  constructor() {
    this.variablesCover(INITIAL_CAPACITY);
    this.objectsCover(INITIAL_CAPACITY);
    this.allocMarks = growI(this.allocMarks, 16, 0);
    this.allocObjectIds = growI(this.allocObjectIds, 16, 0);
    this.locations.intern('');
  }

  /** Interns a variable name from bytes (described later, where used: {@link describeUpTo}). @returns its id. */
  variable(buf: Uint8Array, start: number, end: number): number {
    return this.variables.internBytes(buf, start, end);
  }

  /**
   * Interns the variable name `buf[start, end)` that `variables.find` has just missed (see {@link Interner.addMissed}).
   * @returns its new id.
   */
  newVariable(buf: Uint8Array, start: number, end: number): number {
    return this.variables.addMissed(buf, start, end);
  }

  /** Interns a variable name given as a string. */
  variableNamed(name: string): number {
    const b = Buffer.from(name, 'utf8');
    return this.variable(b, 0, b.length);
  }

  /**
   * The object `buf[start, end)` an `alloc` names (or a binary trace defines): its object id, interned after describing
   * every variable interned so far (so that ids are those of describing each variable as it is interned); in a parser
   * thread that tracks its changes, its alloc name's id instead ({@link allocNames}; the variable count kept with a new
   * one).
   */
  allocObject(buf: Uint8Array, start: number, end: number): number {
    if (this.deferAllocs) {
      const before = this.allocNames.size;
      const id = this.allocNames.internBytes(buf, start, end);
      if (id === before) {
        if (id >= this.allocMarks.length) this.allocMarks = growI(this.allocMarks, 2 * id + 16, 0);
        this.allocMarks[id] = this.variables.size;
      }
      return id;
    }
    this.describeUpTo(this.variables.size);
    return this.internObject(buf, start, end);
  }

  /** Interns object `buf[start, end)`, growing the per-object list heads to hold it. @returns its id. */
  private internObject(buf: Uint8Array, start: number, end: number): number {
    const obj = this.objects.internBytes(buf, start, end);
    this.objectsCover(obj + 1);
    return obj;
  }

  /**
   * The object ids of the alloc names a parser thread sent ({@link applyChanges}) not resolved before, each interned
   * after describing the variables interned before its first sight (the order of describing each variable as it is
   * interned). @returns the object id per alloc name id (valid up to `allocNames.size`).
   */
  resolveAllocNames(): Int32Array {
    const names = this.allocNames;
    if (this.allocResolved < names.size) {
      if (names.size > this.allocObjectIds.length)
        this.allocObjectIds = growI(this.allocObjectIds, 2 * names.size, 0);
      for (let k = this.allocResolved; k < names.size; k++) {
        this.describeUpTo(this.allocMarks[k]);
        this.allocObjectIds[k] = this.internObject(names.arenaBytes(), names.start(k), names.end(k));
      }
      this.allocResolved = names.size;
    }
    return this.allocObjectIds;
  }

  /**
   * Describes the variables `[described, n)` (`n` at most `variables.size`), in id order: splits each name into object
   * and array index ({@link splitVariable}), interns the object, links the variable into its object's list
   * (`objectFirstVariable`, `variableNextInObject`). Safe wherever no alloc name of a variable count below `n` is left
   * unresolved: in the thread that parses, and in the one that follows a parser thread once it applied a batch's
   * changes and resolved its alloc names.
   */
  describeUpTo(n: number): void {
    if (n <= this.described) return;
    const names = this.variables;
    const buf = names.arenaBytes();
    const split = this.split;
    this.variablesCover(n);
    for (let id = this.described; id < n; id++) {
      splitVariable(buf, names.start(id), names.end(id), split);
      const obj = this.internObject(buf, split[0], split[1]);
      this.variableObject[id] = obj;
      this.variableArrayIndex[id] = split[2];
      this.variableNextInObject[id] = this.objectFirstVariable[obj];
      this.objectFirstVariable[obj] = id;
    }
    this.described = n;
  }

  /** The object id of variable `x` (described first if it was not). */
  objectOf(x: number): number {
    if (x >= this.described) this.describeUpTo(this.variables.size);
    return this.variableObject[x];
  }

  /**
   * The first variable of object `o` in its list (`variableNextInObject` continues it; -1 ends), every variable interned
   * so far described first: the variables an `alloc(o)` resets (rule 8).
   */
  firstVariableOf(o: number): number {
    this.describeUpTo(this.variables.size);
    return o < this.objectFirstVariable.length ? this.objectFirstVariable[o] : -1;
  }

  /** The object span and array index of the variable being described ({@link splitVariable}). */
  private readonly split = new Float64Array(3);

  /**
   * The interners, in the order of {@link SymbolsChanges.tables}: not `objects`, which a parser thread that tracks its
   * changes leaves empty and the thread that follows it fills itself (its `alloc` objects are `allocNames`).
   */
  private interners(): Interner[] {
    return [
      this.threads,
      this.variables,
      this.locks,
      this.volatiles,
      this.allocNames,
      this.locations,
      this.values,
      this.markers,
    ];
  }

  /**
   * Starts logging the names interned, for {@link takeChanges} (`Interner.trackChanges`); from then on `alloc` objects
   * are kept as alloc names ({@link allocObject}).
   */
  trackChanges(): void {
    for (const t of this.interners()) t.trackChanges();
    this.deferAllocs = true;
    this.allocMarksTaken = this.allocNames.size;
  }

  /**
   * The names interned since {@link trackChanges} or the last call, with the variable count at the first sight of each
   * new alloc name, as data that a copy of these tables at that point turns into a copy of them now
   * ({@link applyChanges}; trace/pipeline.ts posts it from the parser thread).
   * @returns undefined when no name was interned since (`Interner.takeChanges`).
   * @throws Error if changes are not tracked.
   */
  takeChanges(): SymbolsChanges | undefined {
    const from = this.allocMarksTaken;
    const tables = this.interners().map((t) => t.takeChanges());
    if (tables.every((t) => t === undefined)) return undefined; // no new alloc name either
    this.allocMarksTaken = this.allocNames.size;
    return { tables, allocMarks: this.allocMarks.slice(from, this.allocNames.size) };
  }

  /**
   * Makes these tables, a copy of the ones `changes` were taken from as they were then, a copy of them as they were
   * when taken (`Interner.applyChanges`), without interning a name; the new alloc names are resolved to object ids by
   * {@link resolveAllocNames}; undefined: none taken (`takeChanges`). @throws Error if they were not such a copy.
   */
  applyChanges(changes: SymbolsChanges | undefined): void {
    if (changes === undefined) return;
    const from = this.allocNames.size;
    this.interners().forEach((t, k) => {
      const c = changes.tables[k];
      if (c !== undefined) t.applyChanges(c);
    });
    if (this.allocNames.size > this.allocMarks.length)
      this.allocMarks = growI(this.allocMarks, 2 * this.allocNames.size, 0);
    this.allocMarks.set(changes.allocMarks, from);
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
 * What {@link Symbols.takeChanges} gives: per interner (threads, variables, locks, volatiles, alloc names, locations,
 * values, markers) its changes, and per new alloc name the number of variables interned when it was first named.
 */
export interface SymbolsChanges {
  /** Undefined where the interner has no new name. */
  tables: (InternerChanges | undefined)[];
  allocMarks: Int32Array;
}
