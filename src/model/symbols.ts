import { growFilled as growI, Interner } from './interner.js';

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
  variableObject: Int32Array = new Int32Array(1024);
  /** Array element index of each variable, or -1 for a field. */
  variableArrayIndex: Float64Array = new Float64Array(1024);
  /** Variables of each object as singly linked lists: head per object, next per variable (-1 ends). */
  objectFirstVariable: Int32Array = new Int32Array(1024).fill(-1);
  variableNextInObject: Int32Array = new Int32Array(1024).fill(-1);

  constructor() {
    this.locations.intern('');
  }

  /** Interns a variable name from bytes, recording its object on first sight. */
  variable(buf: Uint8Array, start: number, end: number): number {
    const before = this.variables.size;
    const id = this.variables.internBytes(buf, start, end);
    if (id === before) this.describeVariable(id);
    return id;
  }

  /** As {@link variable}, with the name's last bytes as two ints (Interner.internTail). */
  variableTail(buf: Uint8Array, start: number, end: number, w0: number, w1: number): number {
    const before = this.variables.size;
    const id = this.variables.internTail(buf, start, end, w0, w1);
    if (id === before) this.describeVariable(id);
    return id;
  }

  /** Interns a variable name given as a string. */
  variableNamed(name: string): number {
    const b = Buffer.from(name, 'utf8');
    return this.variable(b, 0, b.length);
  }

  private describeVariable(id: number): void {
    const name = this.variables.name(id);
    const { object, index } = splitVariable(name);
    const obj = this.objects.intern(object);
    if (id >= this.variableObject.length) {
      const cap = this.variableObject.length * 2;
      this.variableObject = growI(this.variableObject, cap, 0);
      this.variableNextInObject = growI(this.variableNextInObject, cap, -1);
      const a = new Float64Array(cap);
      a.set(this.variableArrayIndex);
      this.variableArrayIndex = a;
    }
    if (obj >= this.objectFirstVariable.length) {
      this.objectFirstVariable = growI(
        this.objectFirstVariable,
        Math.max(obj + 1, this.objectFirstVariable.length * 2),
        -1,
      );
    }
    this.variableObject[id] = obj;
    this.variableArrayIndex[id] = index;
    this.variableNextInObject[id] = this.objectFirstVariable[obj];
    this.objectFirstVariable[obj] = id;
  }

  /** Ensures `objectFirstVariable` covers object ids interned directly (by `alloc`). */
  objectCapacity(): number {
    const n = this.objects.size;
    if (n > this.objectFirstVariable.length) {
      this.objectFirstVariable = growI(
        this.objectFirstVariable,
        Math.max(n, this.objectFirstVariable.length * 2),
        -1,
      );
    }
    return this.objectFirstVariable.length;
  }
}

/**
 * Splits a variable name into its object and array index (see {@link Symbols}).
 * @returns `index` -1 for a field.
 */
export function splitVariable(name: string): { object: string; index: number } {
  if (name.endsWith(']')) {
    const open = name.lastIndexOf('[');
    if (open > 0) {
      const inner = name.slice(open + 1, -1);
      if (/^\d+$/.test(inner)) return { object: name.slice(0, open), index: Number(inner) };
    }
  }
  const rr = /^@[0-9A-Fa-f]+\./.exec(name);
  if (rr !== null) return { object: rr[0].slice(0, -1), index: -1 };
  if (name.startsWith('null.')) {
    const dot = name.lastIndexOf('.');
    if (dot > 5) return { object: name.slice(5, dot), index: -1 };
  }
  const at = name.lastIndexOf('@');
  if (at > 0 && at < name.length - 1 && /^\d+$/.test(name.slice(at + 1))) {
    return { object: name.slice(at), index: -1 };
  }
  const dot = name.lastIndexOf('.');
  if (dot > 0) return { object: name.slice(0, dot), index: -1 };
  return { object: name, index: -1 };
}
