/**
 * Range checks of loops (`src/instrument/ranges.ts`, issue 24 §1): which `for` loops get the one `__goldilocks.span`
 * check, and, differentially, that the accesses a span names are exactly the elements the loop's per-access checks
 * see (a runtime that records the accesses of `get`/`set`, against one whose `span` records what its arguments
 * name and lets the loop run plain).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runInThisContext } from 'node:vm';
import type { Runtime } from '../../src/hooks/contract.js';
import { installHooks, installRuntime } from '../../src/hooks/install.js';
import { passthrough } from '../../src/hooks/thread.js';
import { fixedLength, typedIteration } from '../../src/hooks/views.js';
import { instrument } from '../../src/instrument/instrument.js';
import { iterations } from '../../src/live/spans.js';

installHooks();

/** The views of the run under way, by name, and the accesses seen: `R name index` / `W name index`. */
let named = new Map<unknown, string>();
let seen = new Set<string>();
let spans = 0;
/** Whether the runtime's `span` records and answers true (else false: the per-access checks run). */
let ranged = true;
/** What the runtime's `covered` answers (bit k: the k-th access of a covered loop runs plain), and its calls. */
let bits = 0;
let covers = 0;
/** The runtime's count of synchronization operations (`Runtime.syncs`): a test's setter bumps it to synchronize. */
const syncs = { n: 0 };

const nameOf = (o: unknown): string => named.get(o) ?? '?';
/** The built-in getter of a TypedArray's length (a view's own `length` property may be a user's getter). */
const lengthOf = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length')
  ?.get as (this: unknown) => number;
/** Records an access of `o[k]` when `k` names an element (else it touches no memory). */
const note = (kind: string, o: ArrayBufferView, k: unknown): void => {
  if (Number.isInteger(k) && (k as number) >= 0 && (k as number) < lengthOf.call(o))
    seen.add(`${kind} ${nameOf(o)} ${String(k)}`);
};
const runtime: Runtime = {
  get(o, k, site) {
    note('R', o, k);
    return passthrough.get(o, k, site);
  },
  set(o, k, v, site) {
    note('W', o, k);
    return passthrough.set(o, k, v, site);
  },
  span(_m, lo, hi, step, inclusive, _ints, list) {
    spans++;
    if (!ranged) return false;
    const count = iterations(lo, hi, step, inclusive);
    if (count < 0) return false; // a `j !== hi` loop that never reaches hi: the per-access checks
    for (let k = 0; k < list.length; k += 6) {
      const o = list[k] as Float64Array;
      const first = list[k + 2] as number;
      const stride = list[k + 3] as number;
      const kind = list[k + 4] as number;
      for (let t = 0; t < count; t++) {
        const x = first + stride * t;
        if (!Number.isInteger(x) || x < 0 || x >= o.length) continue;
        if (kind !== 1) seen.add(`R ${nameOf(o)} ${x}`);
        if (kind !== 0) seen.add(`W ${nameOf(o)} ${x}`);
      }
    }
    return true;
  },
  covered() {
    covers++;
    return bits;
  },
  syncs,
};
installRuntime(runtime);

/** A SharedArrayBuffer of `bytes` that can grow to `max` (ECMA-262 §25.2.3.1; Node 20's types lack the option). */
const growable = (bytes: number, max: number): SharedArrayBuffer =>
  new (SharedArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => SharedArrayBuffer)(
    bytes,
    {
      maxByteLength: max,
    },
  );

/** Instruments `fn` (a function's source) as a script whose value is that function. */
const compile = (fn: string): string => instrument(`(${fn})`, { file: 'ranges.js', module: false }).code;

const spanned = (fn: string): boolean => compile(fn).includes('__goldilocks.span(');

/** Float64Arrays over shared memory, named a, b, c..., each of `n` elements holding 1, 2, 3... */
function views(count: number, n: number): Float64Array[] {
  const out: Float64Array[] = [];
  for (let v = 0; v < count; v++) {
    const a = new Float64Array(new SharedArrayBuffer(8 * n));
    for (let k = 0; k < n; k++) a[k] = 1 + k * 0.5 + v;
    named.set(a, String.fromCharCode(97 + v));
    out.push(a);
  }
  return out;
}

/**
 * Runs the instrumented `fn` on fresh views, range-checked or not, `covered` answering `answer`: the accesses seen,
 * the result, the views after, and the calls of `span` and `covered`.
 */
function runOnce(
  fn: string,
  args: (v: Float64Array[]) => unknown[],
  count: number,
  withRanges: boolean,
  answer = 0,
) {
  named = new Map();
  seen = new Set();
  spans = 0;
  ranged = withRanges;
  covers = 0;
  bits = answer;
  const v = views(count, 40);
  const f = runInThisContext(compile(fn)) as (...a: unknown[]) => unknown;
  const result = f(...args(v));
  return { seen: [...seen].sort(), result, after: v.map((a) => [...a]), spans, covers };
}

/** Starts a run of range-checked loops over the views of `views` (by name): no access seen, no span yet. */
function observe(views: Map<unknown, string>): void {
  named = views;
  seen = new Set();
  spans = 0;
  ranged = true;
}

/**
 * `kind` 'a DataView': a DataView whose element 0 is read by `get`, a getter on its prototype; else a Proxy of `[0]`
 * whose `get` trap is `get`: an element access of either runs code.
 */
function trapping(kind: string, get: () => unknown): unknown {
  const proto = Object.create(DataView.prototype);
  Object.defineProperty(proto, 0, { get });
  return kind === 'a DataView'
    ? Object.setPrototypeOf(new DataView(new ArrayBuffer(8)), proto)
    : new Proxy([0], { get });
}

/** The loops that take the range check, with arguments: both runs see the same accesses and compute the same. */
const RANGED: Record<
  string,
  { fn: string; args: (v: Float64Array[]) => unknown[]; views?: number; spans?: number }
> = {
  'SOR row (five reads and a write of one view)': {
    fn: `function relaxRow(g, n, i) {
      const w4 = 1.25 * 0.25;
      const w1 = 1 - 1.25;
      const up = (i - 1) * n;
      const row = i * n;
      const down = (i + 1) * n;
      for (let j = 1; j < n - 1; j++)
        g[row + j] = w4 * (g[up + j] + g[down + j] + g[row + j - 1] + g[row + j + 1]) + w1 * g[row + j];
    }`,
    args: ([g]) => [g, 6, 2],
  },
  'a red-black sweep over the rows of an array of views (g[i][j], g[i - 1][j]: Hooks.row reads each row)': {
    fn: `function sweep(g, n, c) {
      for (let i = 1; i < n - 1; i++)
        for (let j = 1 + ((i + c) & 1); j < n - 1; j += 2)
          g[i][j] = 0.25 * (g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1]) + 0.5 * g[i][j];
      return g[2][3];
    }`,
    args: (rows) => [rows, 6, 1],
    views: 6,
    spans: 4,
  },
  "a class's red-black sweep over its member view (this.g[i * n + j]: Hooks.row reads this.g as each row's loop is entered)":
    {
      fn: `function run(a, n, c) {
      class Solver {
        constructor(g, n) { this.g = g; this.n = n; }
        sweep(c) {
          const n = this.n;
          for (let i = 1; i < n - 1; i++)
            for (let j = 1 + ((i + c) & 1); j < n - 1; j += 2) {
              const k = i * n + j;
              this.g[k] = 0.25 * (this.g[k - n] + this.g[k + n] + this.g[k - 1] + this.g[k + 1]) + 0.5 * this.g[k];
            }
        }
      }
      new Solver(a, n).sweep(c);
      return a[n + 2];
    }`,
      args: ([a]) => [a, 6, 1],
      spans: 4,
    },
  'a member view of this in the constructor of a class without extends (this bound on entry)': {
    fn: `function f(a, n) {
      class C { constructor(a, n) { this.g = a; for (let j = 0; j < n; j++) this.g[j] += j; } }
      new C(a, n);
    }`,
    args: ([a]) => [a, 30],
  },
  "a state object's member views (s.a[j], s.b[j]), the object a parameter": {
    fn: `function axpy(s, n) {
      for (let j = 0; j < n; j++) s.b[j] += 2 * s.a[j + 1];
    }`,
    args: ([a, b]) => [{ a, b }, 20],
    views: 2,
  },
  "a member view read in an arrow function (this: the method's), and one inherited from the object's prototype":
    {
      fn: `function run(a, b, n) {
      const base = { src: b };
      const o = Object.create(base);
      o.dst = a;
      o.copy = function (n) {
        const go = (m) => { for (let j = 0; j < m; j++) this.dst[j] = this.src[m - j]; };
        go(n);
      };
      o.copy(n);
    }`,
      args: ([a, b]) => [a, b, 12],
      views: 2,
    },
  'LUFact daxpy (compound assignment)': {
    fn: `function update(a, n, k, j) {
      const colk = k * n;
      const colj = j * n;
      const t = a[colj + 1];
      for (let i = k + 1; i < n; i++) a[colj + i] += t * a[colk + i];
    }`,
    args: ([a]) => [a, 6, 1, 3],
  },
  'an inner loop indexed by the outer loop variable (unassigned in the inner loop; the outer loop nests one)':
    {
      fn: `function f(a, n) { for (let i = 0; i < n; i++) { for (let j = 0; j < n; j++) a[i * 8 + j] += 1; } }`,
      args: ([a]) => [a, 4],
      spans: 4,
    },
  'two views, a reduction into a local, step 2, <=': {
    fn: `function dot(a, b, lo, hi) {
      let s = 0;
      for (let j = lo; j <= hi; j += 2) s += a[j] * b[j + 1];
      return s;
    }`,
    args: ([a, b]) => [a, b, 3, 17],
    views: 2,
  },
  'a decreasing index, out-of-bounds indices, declarations and an if without accesses': {
    fn: `function rev(a, b, n) {
      let m = 0;
      for (let j = 0; j < n; j++) {
        const x = a[n - 1 - j] * 2;
        b[j + 30] = x;
        if (x > m) m = x;
      }
      return m;
    }`,
    args: ([a, b]) => [a, b, 45],
    views: 2,
  },
  'a write-only view and an invariant element read every iteration': {
    fn: `function scale(a, b, k, n) {
      for (let j = 0; j < n; j++) b[j] = a[k] * j;
    }`,
    args: ([a, b]) => [a, b, 7, 20],
    views: 2,
  },
  'a cached length (for (let j = 0, n = a.length; j < n; j++)): the invariant stands for its initializer in the bound':
    {
      fn: `function scale(a, b) {
      for (let j = 0, n = a.length; j < n; j++) a[j] *= 2;
      for (let j = 1, n = b.length, last = n - 1; j < last; j++) b[j] = a[j - 1] + a[j + 1];
    }`,
      args: ([a, b]) => [a, b],
      views: 2,
      spans: 2,
    },
  'invariants over locals, the loop going down (let j = hi, lo = k + 1; j >= lo; j--)': {
    fn: `function tail(a, k, hi) {
      let s = 0;
      for (let j = hi, lo = k + 1; j >= lo; j--) s += a[j] * j;
      return s;
    }`,
    args: ([a]) => [a, 3, 30],
  },
  "a member view's length as the bound (j < this.g.length; n = this.g.length - 1): its row's temporary's length":
    {
      fn: `function run(a) {
      class Scaler {
        constructor(g) {
          this.g = g;
        }
        scale() {
          for (let j = 0; j < this.g.length; j++) this.g[j] *= 2;
        }
        smooth() {
          for (let j = 1, n = this.g.length - 1; j < n; j++) this.g[j] += this.g[j] * 0.5;
        }
      }
      const s = new Scaler(a);
      s.scale();
      s.smooth();
      return a[3];
    }`,
      args: ([a]) => [a],
      spans: 2,
    },
  "a row's length as the bound (j < g[i].length, g an array of views)": {
    fn: `function double(g, n) {
      for (let i = 0; i < n; i++) for (let j = 0; j < g[i].length; j++) g[i][j] *= 2;
    }`,
    args: (rows) => [rows, 3],
    views: 3,
    spans: 3,
  },
  "a maximum search (if (a[j] > m) m = a[j]): the branch's read is redundant with the if's test (RedCard)": {
    fn: `function max(a, n) {
      let m = -Infinity;
      let at = -1;
      for (let j = 0; j < n; j++)
        if (a[j] > m) {
          m = a[j];
          at = j;
        }
      return [m, at];
    }`,
    args: ([a]) => [a, 40],
  },
  'conditional reads under &&, ?: and ??, each of an element read before in the iteration, over two views': {
    fn: `function band(a, b, lo, hi, n) {
      let s = 0;
      for (let j = 1; j < n; j++) {
        const x = a[j] + b[j - 1];
        s += a[j] > lo && a[j] < hi ? a[j] : b[j - 1] ?? x;
      }
      return s;
    }`,
    args: ([a, b]) => [a, b, 5, 30, 40],
    views: 2,
  },
  'a NaN guard (b[j] = Number.isNaN(a[j]) ? 0 : a[j]): a Number predicate, its read again under ?:': {
    fn: `function clean(a, b, n) {
      for (let j = 0; j < n; j++) b[j] = Number.isNaN(a[j]) || !Number.isFinite(a[j]) ? 0 : a[j];
    }`,
    args: ([a, b]) => [a, b, 40],
    views: 2,
  },
  'pure Math calls (pivot search: Math.abs, and Math.max)': {
    fn: `function pivot(a, n, k) {
      let max = -1;
      let l = k;
      for (let i = k; i < n; i++) {
        const v = Math.max(Math.abs(a[i]), 0);
        if (v > max) {
          max = v;
          l = i;
        }
      }
      return l;
    }`,
    args: ([a]) => [a, 30, 4],
  },
  'bounds a.length and b.length - k (the view lengths, fixed over shared memory)': {
    fn: `function smooth(a, b, k) {
      for (let j = 0; j < a.length; j++) a[j] *= 2;
      for (let j = 1; j < b.length - k; j++) b[j] = a[j - 1] + a[j + 1];
    }`,
    args: ([a, b]) => [a, b, 1],
    views: 2,
    spans: 2,
  },
  'a counter index (pack: b[k++] = a[j]), k returned': {
    fn: `function pack(a, b, n, k) {
      for (let j = 0; j < n; j++) b[k++] = a[j] * 2;
      return k;
    }`,
    args: ([a, b]) => [a, b, 10, 3],
    views: 2,
  },
  'two increments per iteration, a prefix one, reads of the counter': {
    fn: `function spread(a, b, n) {
      let c = 1;
      let s = 0;
      for (let j = 0; j < n; j++) {
        b[c++] = a[j];
        b[++c] = a[j + 1] + c;
        s += a[c] * c;
      }
      return s + c;
    }`,
    args: ([a, b]) => [a, b, 12],
    views: 2,
  },
  'a target indexed by the counter before the right-hand side increments it (b[c] = a[c++])': {
    fn: `function shift(a, b, n) {
      let c = 2;
      for (let j = 0; j < n; j++) b[c] = a[c++];
      return c;
    }`,
    args: ([a, b]) => [a, b, 9],
    views: 2,
  },
  'a target index incremented before the right-hand side reads the counter (b[c++] = a[c])': {
    fn: `function shift(a, b, n) {
      let c = 2;
      for (let j = 0; j < n; j++) b[c++] = a[c] + c;
      return c;
    }`,
    args: ([a, b]) => [a, b, 9],
    views: 2,
  },
  'literal bounds of 16 iterations (a range check pays)': {
    fn: `function fill(a) { for (let j = 2; j <= 32; j += 2) a[j] = j; }`,
    args: ([a]) => [a],
  },
  'indices through body consts affine in j (const i = 2 * j; const k = i + 1)': {
    fn: `function pairs(a, b, n) {
      for (let j = 0; j < n; j++) {
        const i = 2 * j;
        const k = i + 1;
        b[j] = a[i] + a[k] * k;
      }
    }`,
    args: ([a, b]) => [a, b, 15],
    views: 2,
  },
  'a write through a body const after the read of its element (a[i] = a[i] * 2)': {
    fn: `function twice(a, off, n) {
      for (let j = 0; j < n; j++) {
        const i = j + off;
        a[i] = a[i] * 2;
      }
    }`,
    args: ([a]) => [a, 5, 20],
  },
  "an inner loop of literal bounds, unrolled (crypt's rounds: a counter the body declares, k[ik++])": {
    fn: `function cipher(a, b, k, lo, hi) {
      for (let blk = lo; blk < hi; blk++) {
        const i = 4 * blk;
        let x = a[i] + a[i + 1];
        let ik = 0;
        for (let r = 0; r < 3; r++) {
          x = x * k[ik++] + k[ik++];
          x += k[r + 20];
        }
        x += k[ik++];
        b[i] = x;
        b[i + 1] = x * 2;
        b[i + 2] = a[i + 2] + ik;
        b[i + 3] = x - 1;
      }
    }`,
    args: ([a, b, k]) => [a, b, k, 1, 6],
    views: 3,
  },
  'an inner loop over its own variable (a[i + r], r < 4, step 2) and an outer counter it increments': {
    fn: `function sums(a, b, o, n) {
      let c = 3;
      for (let j = 0; j < n; j++) {
        const i = 4 * j;
        let s = 0;
        for (let r = 0; r < 4; r += 2) {
          const q = i + r;
          s += a[q] + a[q + 1] * b[c++];
        }
        o[j] = s;
      }
      return c;
    }`,
    args: ([a, b, o]) => [a, b, o, 8],
    views: 3,
  },
  'an inner loop index r * r: a constant in each unrolled iteration': {
    fn: `function squares(a, k, n) {
      for (let j = 0; j < n; j++) {
        for (let r = 0; r < 4; r++) a[j] += k[r * r];
      }
    }`,
    args: ([a, k]) => [a, k, 12],
    views: 2,
  },
  "a start with bitwise operators on locals (a red-black sweep's 1 + ((i + p) & 1), step 2)": {
    fn: `function sweep(a, i, p, n) {
      for (let j = 1 + ((i + p) & 1); j < n; j += 2) a[j] = a[j] * 2 + a[j - 1];
    }`,
    args: ([a]) => [a, 3, 4, 20],
  },
  'an offset with a remainder by a literal and a shift ((i % 3) << 2)': {
    fn: `function shift(a, b, i, n) {
      for (let j = 0; j < n; j++) b[j] = a[j + ((i % 3) << 2)];
    }`,
    args: ([a, b]) => [a, b, 5, 12],
    views: 2,
  },
  "a parity skip (a red-black sweep's if ((i + j) % 2 !== c) continue): every second element, from the first run":
    {
      fn: `function sweep(a, i, c, n) {
      for (let j = 1; j < n - 1; j++) {
        if ((i + j) % 2 !== c) continue;
        a[j] = a[j] * 2 + a[j - 1] + a[j + 1];
      }
    }`,
      args: ([a]) => [a, 3, 0, 20],
    },
  'a parity skip by & 1 of a negative A, in a block, the colour on the left': {
    fn: `function odd(a, n) {
      for (let j = 0; j < n; j++) {
        if (1 === ((j - 7) & 1)) { continue; }
        a[j] += 1;
      }
    }`,
    args: ([a]) => [a, 20],
  },
  'a parity skip that never alternates (j % 2 !== 2): no span, nothing touched': {
    fn: `function never(a, n) {
      for (let j = 0; j < n; j++) {
        if (j % 2 !== 2) continue;
        a[j] = 1;
      }
    }`,
    args: ([a]) => [a, 20],
    spans: 0,
  },
  'a parity skip by % 2 of an A below zero ((j - 6) % 2 !== -1): no span, the elements of the per-access checks':
    {
      fn: `function below(a, n) {
      for (let j = 0; j < n; j++) {
        if ((j - 6) % 2 !== -1) continue;
        a[j] = 1;
      }
    }`,
      args: ([a]) => [a, 12],
      spans: 0,
    },
  "a matrix product's column (b[k * n + j]): a stride the guard computes, n elements": {
    fn: `function dot(a, b, i, j, n) {
      let s = 0;
      for (let k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      return s;
    }`,
    args: ([a, b]) => [a, b, 1, 2, 4],
    views: 2,
  },
  'a column written, its stride a part without j times a literal (m[2 * (k * (w + 1)) + c] = k)': {
    fn: `function column(m, w, c, n) {
      for (let k = 0; k < n; k++) m[2 * (k * (w + 1)) + c] = k;
    }`,
    args: ([m]) => [m, 2, 1, 5],
  },
  'a loop going down (j = n - 1; j >= 0; j--), a stencil read of one view and a write of another': {
    fn: `function back(a, b, n) { for (let j = n - 1; j >= 0; j--) b[j] = a[j] + a[j + 1]; }`,
    args: ([a, b]) => [a, b, 10],
    views: 2,
  },
  'a loop going down from a.length - 1 (the start reads the fixed length)': {
    fn: `function halve(a) { for (let j = a.length - 1; j >= 0; j--) a[j] = a[j] / 2; }`,
    args: ([a]) => [a],
  },
  'a loop going down by 3 over a column (k > lo; k -= 3), in place': {
    fn: `function column(a, hi, lo, n) { for (let k = hi; k > lo; k -= 3) a[k * n + 1] += k; }`,
    args: ([a]) => [a, 9, 0, 2],
  },
  'a loop going down from a literal, with no iteration (j = 3; j > 5; j--)': {
    fn: `function none(a, n) { for (let j = 3; j > n; j--) a[j] = 1; }`,
    args: ([a]) => [a, 5],
  },
  'zero iterations': {
    fn: `function fill(a, lo, hi) { for (let j = lo; j < hi; j++) a[j] = 1; }`,
    args: ([a]) => [a, 9, 3],
  },
  'a non-integer start (no element touched)': {
    fn: `function fill(a, lo, hi) { for (let j = lo; j < hi; j++) a[j] = 1; }`,
    args: ([a]) => [a, 0.5, 6],
  },
  "a class's red-black sweep reading its fields as numbers (this.n in the bounds and indices, this.omega in the body)":
    {
      fn: `function run(a, n, c) {
      class Solver {
        constructor(g, n, omega) { this.g = g; this.n = n; this.omega = omega; }
        sweep(c) {
          for (let i = 1; i < this.n - 1; i++)
            for (let j = 1 + ((i + c) & 1); j < this.n - 1; j += 2) {
              const k = i * this.n + j;
              this.g[k] = (this.omega / 4) * (this.g[k - this.n] + this.g[k + this.n] + this.g[k - 1] + this.g[k + 1]) +
                (1 - this.omega) * this.g[k];
            }
        }
      }
      new Solver(a, n, 1.25).sweep(c);
      return a[n + 2];
    }`,
      args: ([a]) => [a, 6, 1],
      spans: 4,
    },
  "a state object's numbers (s.lo, s.hi bounds, s.w in the body, s.n a coefficient) and an inherited one (s.off)":
    {
      fn: `function axpy(a, b, t) {
      const s = Object.create({ off: 2 });
      Object.assign(s, t);
      let sum = 0;
      for (let j = s.lo; j <= s.hi; j++) {
        b[j * s.n + s.off] = s.w * a[j];
        sum += s.w;
      }
      return sum;
    }`,
      args: ([a, b]) => [a, b, { lo: 3, hi: 11, n: 3, w: 0.5 }],
      views: 2,
    },
  'another property of the object read in the body (this.g[j] = this.w), a member view and a member number': {
    fn: `function run(a, n) {
      const o = { g: a, w: 3, fill(n) { for (let j = 0; j < n; j++) this.g[j] = this.w * j; } };
      o.fill(n);
    }`,
    args: ([a]) => [a, 20],
  },
  "an arrow over rows bounded by the enclosing function's parameter (rows.forEach((row) => ... j < n ...))": {
    fn: `function scale(a, b, n) {
      [a, b].forEach((row) => { for (let j = 0; j < n; j++) row[j] = row[j] * 2 + j; });
      return a[3] + b[n - 1];
    }`,
    args: ([a, b]) => [a, b, 20],
    views: 2,
    spans: 2,
  },
  "a worker's sweep declared in main over main's const grid and n (Hooks.declared tests them), an accumulator of main's":
    {
      fn: `function main(a, c) {
      const grid = a;
      const n = 6;
      let total = 0;
      function sweep(c) {
        for (let i = 1; i < n - 1; i++)
          for (let j = 1 + ((i + c) & 1); j < n - 1; j += 2) {
            grid[i * n + j] = 0.25 * (grid[i * n + j - 1] + grid[i * n + j + 1] + grid[(i - 1) * n + j]) + 0.5 * grid[i * n + j];
            total += grid[i * n + j];
          }
      }
      sweep(c);
      sweep(1 - c);
      return total;
    }`,
      args: ([a]) => [a, 1],
      spans: 8,
    },
  'a parity skip on member numbers (if ((s.i + j) % 2 !== s.c) continue), bounded by s.n': {
    fn: `function sweep(a, s) {
      for (let j = 1; j < s.n - 1; j++) {
        if ((s.i + j) % 2 !== s.c) continue;
        a[j] = a[j] * 2 + a[j - 1] + a[j + 1];
      }
    }`,
    args: ([a]) => [a, { i: 3, c: 0, n: 20 }],
  },
  'a member number going down from it (j = this.n - 1; j >= 0; j--)': {
    fn: `function run(a) {
      const o = { a, n: 30, halve() { for (let j = this.n - 1; j >= 0; j--) this.a[j] = this.a[j] / 2; } };
      o.halve();
    }`,
    args: ([a]) => [a],
  },
  'a while loop whose last statement is its update (from the value of j on entry; j after the loop)': {
    fn: `function f(a, b, lo, n) {
      let j = lo;
      while (j < n) {
        a[j] = 2 * b[j + 1];
        j++;
      }
      return j;
    }`,
    args: ([a, b]) => [a, b, 3, 30],
    views: 2,
  },
  'a while loop going down by a step of 3': {
    fn: `function f(a, n) {
      let s = 0;
      let j = n;
      while (j >= 2) {
        s += a[j];
        j -= 3;
      }
      return [s, j];
    }`,
    args: ([a]) => [a, 37],
  },
  'a loop bounded by !== (up)': {
    fn: `function f(a, n) { for (let j = 2; j !== n; j++) a[j] *= 3; }`,
    args: ([a]) => [a, 33],
  },
  'a loop bounded by != going down by a step of 2': {
    fn: `function f(a, n) { let s = 0; for (let j = n; j != 1; j -= 2) s += a[j]; return s; }`,
    args: ([a]) => [a, 35],
  },
  'a loop over a variable declared before it (its value after the loop)': {
    fn: `function f(a, n) { let j; for (j = 1; j <= n; j++) a[j] += a[j] * j; return j; }`,
    args: ([a]) => [a, 38],
  },
  'a for loop without initialization, from the value of j on entry': {
    fn: `function f(a, n) { let j = 4; for (; j < n; j += 2) a[j] = -a[j]; return j; }`,
    args: ([a]) => [a, 39],
  },
};

describe('range checks: loops that take them', () => {
  for (const [name, c] of Object.entries(RANGED))
    test(name, () => {
      assert.ok(spanned(c.fn), `no span in:\n${compile(c.fn)}`);
      const count = c.views ?? 1;
      const per = runOnce(c.fn, c.args, count, false);
      const ranged = runOnce(c.fn, c.args, count, true);
      assert.deepEqual(ranged.seen, per.seen);
      assert.deepEqual(ranged.result, per.result);
      assert.deepEqual(ranged.after, per.after);
      assert.equal(ranged.spans, c.spans ?? 1);
    });

  test('rows that cannot be read without running code, or that are views, take the per-access checks', () => {
    const fn = `function sum(g, n, i) { let s = 0; for (let j = 0; j < n; j++) s += g[i][j]; return s; }`;
    const run = (code: string, g: unknown): unknown => {
      try {
        return (runInThisContext(code) as (g: unknown, n: number, i: number) => number)(g, 8, 1);
      } catch (e) {
        return (e as Error).name;
      }
    };
    // each row read is tested to be a view: an array there could be the rows' array itself, written plain
    assert.match(compile(fn), /__goldilocks\.typedArray\(__gl\$\d+ = __goldilocks\.row\(g, i\)\)/);
    const [a] = views(1, 8);
    const getter = [a, a];
    Object.defineProperty(getter, 1, { get: () => a });
    const hole = [a];
    hole[2] = a;
    for (const [name, g] of [
      ['a Proxy', new Proxy([a, a], {})],
      ['a getter', getter],
      ['a hole', hole],
      ['a view (its element is a number)', new Float64Array(new SharedArrayBuffer(16))],
      ['an array of arrays', [[0], [1, 2, 3, 4, 5, 6, 7, 8]]],
    ] as const) {
      observe(new Map([[a, 'a']]));
      const out = run(compile(fn), g);
      assert.equal(spans, 0, name);
      assert.deepEqual(out, run(`(${fn})`, g), name);
      // each element read checked; of the view, its element g[1], a read of shared memory, is
      const expected = name.startsWith('a view')
        ? ['R ? 1']
        : name === 'a hole' || name === 'an array of arrays'
          ? []
          : [0, 1, 2, 3, 4, 5, 6, 7].map((k) => `R a ${k}`);
      assert.deepEqual([...seen].sort(), expected, name);
    }
  });

  test('member views that cannot be read without running code, or that are not views, take the per-access checks', () => {
    const fn = `function sum(n) { let s = 0; for (let j = 0; j < n; j++) s += this.g[j]; return s; }`;
    let reads = 0;
    const run = (code: string, self: unknown): unknown => {
      reads = 0;
      try {
        return (runInThisContext(code) as (this: unknown, n: number) => number).call(self, 8);
      } catch (e) {
        return (e as Error).name;
      }
    };
    // this.g read once by the guard, tested to be a view
    assert.match(compile(fn), /__goldilocks\.typedArray\(__gl\$\d+ = __goldilocks\.row\(this, "g"\)\)/);
    const [a] = views(1, 8);
    const view = new Float64Array(new SharedArrayBuffer(16));
    for (const [name, self] of [
      [
        'a getter',
        {
          get g() {
            reads++;
            return a;
          },
        },
      ],
      ['a Proxy', new Proxy({ g: a }, {})],
      ['a Proxy on the prototype chain', Object.create(new Proxy({ g: a }, {}))],
      ['not a view (an array of numbers)', { g: [1, 2, 3, 4, 5, 6, 7, 8] }],
      ['a view holding it (an own property of a view)', Object.assign(view, { g: a })],
      ['undefined (no object)', undefined],
    ] as const) {
      observe(new Map([[a, 'a']]));
      const out = run(compile(fn), self);
      const instrumentedReads = reads;
      assert.equal(spans, 0, name);
      assert.deepEqual(out, run(`(${fn})`, self), name);
      assert.equal(instrumentedReads, reads, `${name}: the getter runs as often as without instrumentation`);
      const expected =
        name.startsWith('not') || name.startsWith('undefined')
          ? []
          : [0, 1, 2, 3, 4, 5, 6, 7].map((k) => `R a ${k}`);
      assert.deepEqual([...seen].sort(), expected, name);
    }
    // the same object, its member a data property: one span
    spans = 0;
    assert.deepEqual(run(compile(fn), { g: a }), run(`(${fn})`, { g: a }));
    assert.equal(spans, 1);
  });

  test('member numbers that cannot be read without running code, or that are not numbers, take the per-access checks', () => {
    const fn = `function fill(a) { for (let j = 0; j < this.n; j++) a[j] = j * this.w; return a[1]; }`;
    let reads = 0;
    const run = (code: string, self: unknown): { out: unknown; reads: number; a: number[] } => {
      reads = 0;
      const [a] = views(1, 8);
      named = new Map([[a, 'a']]);
      let out: unknown;
      try {
        out = (runInThisContext(code) as (this: unknown, a: Float64Array) => number).call(self, a);
      } catch (e) {
        out = (e as Error).name;
      }
      return { out, reads, a: [...a] };
    };
    // this.n and this.w read once by the guard, each tested to be a number
    const code = compile(fn);
    assert.match(code, /typeof \(__gl\$\d+ = __goldilocks\.row\(this, "n"\)\) === "number"/);
    assert.match(code, /typeof \(__gl\$\d+ = __goldilocks\.row\(this, "w"\)\) === "number"/);
    const counted = {
      valueOf() {
        reads++;
        return 8;
      },
    };
    for (const [name, self] of [
      [
        'a getter',
        {
          get n() {
            reads++;
            return 8;
          },
          w: 2,
        },
      ],
      [
        "a getter of the body's number",
        {
          n: 8,
          get w() {
            reads++;
            return 2;
          },
        },
      ],
      ['a Proxy', new Proxy({ n: 8, w: 2 }, {})],
      ['a Proxy on the prototype chain', Object.create(new Proxy({ n: 8, w: 2 }, {}))],
      ['a string', { n: '8', w: 2 }],
      ['an object whose valueOf runs code', { n: counted, w: 2 }],
      ["an object whose valueOf runs code, the body's", { n: 8, w: counted }],
      ['a BigInt', { n: 8n, w: 2 }],
      ['a member of a view (Hooks.row reads none)', Object.assign(new Float64Array(2), { n: 8, w: 2 })],
      ['no member (this undefined: the global object, in a script)', undefined],
    ] as const) {
      seen = new Set();
      spans = 0;
      ranged = true;
      const instrumented = run(code, self);
      assert.equal(spans, 0, name);
      const plain = run(`(${fn})`, self);
      assert.deepEqual(instrumented.out, plain.out, name);
      assert.deepEqual(instrumented.a, plain.a, name);
      assert.equal(
        instrumented.reads,
        plain.reads,
        `${name}: the code runs as often as without instrumentation`,
      );
      // each element written (none without this.n), then a[1] read by the return
      const expected = [
        'R a 1',
        ...(name.startsWith('no') ? [] : [0, 1, 2, 3, 4, 5, 6, 7].map((k) => `W a ${k}`)),
      ];
      assert.deepEqual([...seen].sort(), expected, name);
    }
    // the same object, its members data properties: one span
    spans = 0;
    assert.deepEqual(run(code, { n: 8, w: 2 }), run(`(${fn})`, { n: 8, w: 2 }));
    assert.equal(spans, 1);
  });

  test("a member view's object or a view read as an operand keeps the per-access checks (its valueOf could replace the view)", () => {
    const fns = {
      member: `function sum(s, n) { let x = 0; for (let j = 0; j < n; j++) x += s.g[j] * s; return x; }`,
      row: `function sum(s, n) { let x = 0; for (let j = 0; j < n; j++) x += s[0][j] * s; return x; }`,
      view: `function sum(s, n) { const g = s.g; let x = 0; for (let j = 0; j < n; j++) x += g[j] * g + s.g[j]; return x; }`,
    };
    for (const [shape, fn] of Object.entries(fns)) {
      const [a, b] = views(2, 8);
      // the first conversion replaces the member (or the row) by another shared view
      const s: Record<string | number, unknown> = { g: a, 0: a };
      const replace = () => {
        s.g = b;
        s[0] = b;
        return 1;
      };
      Object.assign(s, { valueOf: replace });
      Object.defineProperty(a, 'valueOf', { value: replace });
      seen = new Set();
      spans = 0;
      ranged = true;
      (runInThisContext(compile(fn)) as (s: unknown, n: number) => number)(s, 8);
      assert.equal(spans, 0, shape);
      const expected = shape === 'view' ? ['R a 0', 'R b 0', 'R a 1', 'R b 1'] : ['R a 0', 'R b 1'];
      for (const e of expected) assert.equal(seen.has(e), true, `${shape}: ${e} checked`);
    }
  });

  test('with member numbers, a view whose element access may run code (a DataView, a Proxy) keeps the per-access checks', () => {
    // the code its access runs raises the bound this.n past the elements the span would have checked
    const fn = `function sum(d, a) { let s = 0; for (let j = 0; j < this.n; j++) s += d[0] + a[j]; return s; }`;
    for (const kind of ['a DataView', 'a Proxy']) {
      const [a] = views(1, 8);
      const self = { n: 4 };
      const raise = () => {
        self.n = 8;
        return 0;
      };
      const d = trapping(kind, raise);
      observe(new Map([[a, 'a']]));
      const f = runInThisContext(compile(fn)) as (this: unknown, d: unknown, a: Float64Array) => number;
      assert.equal(
        f.call(self, d, a),
        [...a].reduce((x, y) => x + y, 0),
        kind,
      );
      assert.equal(spans, 0, kind);
      assert.deepEqual(
        [...seen].sort(),
        [0, 1, 2, 3, 4, 5, 6, 7].map((k) => `R a ${k}`),
        `${kind}: each read of the shared view checked, those past the first bound too`,
      );
    }
  });

  test('with rows, member views or a view a closure assigns, a view whose element access may run code (a DataView, a Proxy) keeps the per-access checks', () => {
    // the code its access runs replaces the row, the member or the variable by a shared view, which the later
    // iterations read
    const fns = {
      member: `function sum(d, n) { let s = 0; for (let j = 0; j < n; j++) s += d[0] + this.g[j]; return s; }`,
      row: `function sum(d, n) { const g = this.rows; let s = 0; for (let j = 0; j < n; j++) s += d[0] + g[1][j]; return s; }`,
      closure: `function sum(d, n) {
        const a = this.shared;
        let g = new Float64Array(8);
        this.swap = () => { g = a; };
        let s = 0;
        for (let j = 0; j < n; j++) s += d[0] + g[j];
        return s;
      }`,
      captured: `function sum(d, n) {
        const a = this.shared;
        let g = new Float64Array(8);
        this.swap = () => { g = a; };
        const go = () => { let s = 0; for (let j = 0; j < n; j++) s += d[0] + g[j]; return s; };
        return go();
      }`,
    };
    for (const [shape, fn] of Object.entries(fns))
      for (const kind of ['a DataView', 'a Proxy']) {
        const [a] = views(1, 8);
        const self = {
          g: new Float64Array(8),
          rows: [new Float64Array(8), new Float64Array(8)],
          shared: a,
          swap: () => {},
        };
        const replace = () => {
          self.g = a;
          self.rows[1] = a;
          self.swap();
          return 0;
        };
        const d = trapping(kind, replace);
        observe(new Map([[a, 'a']]));
        const f = runInThisContext(compile(fn)) as (this: unknown, d: unknown, n: number) => number;
        const out = f.call(self, d, 8);
        // the shared view's elements, all read after the first access replaced the plain one
        assert.equal(
          out,
          [...a].reduce((x, y) => x + y, 0),
          `${shape}, ${kind}`,
        );
        assert.equal(spans, 0, `${shape}, ${kind}`);
        assert.deepEqual(
          [...seen].sort(),
          [0, 1, 2, 3, 4, 5, 6, 7].map((k) => `R a ${k}`),
          `${shape}, ${kind}: each read of the shared view checked`,
        );
      }
  });

  test('a loop over views that are not shared does not call span', () => {
    const f = runInThisContext(
      compile(`function fill(a, n) { for (let j = 0; j < n; j++) a[j] = j; return a; }`),
    ) as (a: Float64Array, n: number) => Float64Array;
    spans = 0;
    assert.deepEqual([...f(new Float64Array(3), 3)], [0, 1, 2]);
    assert.equal(spans, 0);
  });

  test('a bound or offset that is not a number skips span (its valueOf would run in the check)', () => {
    const f = runInThisContext(
      compile(`function fill(a, n, b) { for (let j = 0; j < n; j++) a[j + b] = j; }`),
    ) as (a: Float64Array, n: unknown, b: unknown) => void;
    const [a] = views(1, 8);
    spans = 0;
    let calls = 0;
    f(a, 2, {
      valueOf() {
        calls++;
        return 1;
      },
    });
    assert.equal(spans, 0);
    assert.equal(calls, 2); // once per iteration, as without instrumentation
  });
  for (const [bound, fn] of [
    ['a length bound', `function f(a) { for (let j = 0; j < a.length; j++) a[j] = j; }`],
    [
      'a start a.length - 1 (going down)',
      `function f(a) { for (let j = a.length - 1; j >= 0; j--) a[j] = j; }`,
    ],
  ])
    test(`${bound} whose read runs code (an own getter) skips span: read as often as without instrumentation`, () => {
      assert.ok(spanned(fn));
      const f = runInThisContext(compile(fn)) as (a: Float64Array) => void;
      const plain = runInThisContext(`(${fn})`) as (a: Float64Array) => void;
      const [a, b, c] = views(3, 8);
      let reads = 0;
      for (const v of [a, c])
        Object.defineProperty(v, 'length', {
          get() {
            reads++;
            return 3;
          },
        });
      plain(c);
      const plainReads = reads;
      reads = 0;
      spans = 0;
      f(a);
      assert.equal(spans, 0);
      assert.equal(reads, plainReads); // as without instrumentation
      assert.deepEqual([...a].slice(0, 3), [...c].slice(0, 3));
      spans = 0;
      f(b);
      assert.equal(spans, 1, 'the built-in getter: span');
    });

  test('a length bound over a growable SharedArrayBuffer skips span', () => {
    const fn = `function f(a) { for (let j = 0; j < a.length; j++) a[j] = j; }`;
    const f = runInThisContext(compile(fn)) as (a: Float64Array) => void;
    const buffer = growable(64, 128);
    assert.ok(buffer.growable);
    const a = new Float64Array(buffer);
    named.set(a, 'g');
    spans = 0;
    f(a);
    assert.equal(spans, 0);
    assert.deepEqual([...a], [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  test("a member view's length bound over a growable SharedArrayBuffer skips span", () => {
    const fn = `function f(o) { for (let j = 0; j < o.g.length; j++) o.g[j] = j; }`;
    assert.ok(spanned(fn));
    const f = runInThisContext(compile(fn)) as (o: { g: Float64Array }) => void;
    const a = new Float64Array(growable(64, 128));
    named.set(a, 'g');
    spans = 0;
    f({ g: a });
    assert.equal(spans, 0);
    assert.deepEqual([...a], [0, 1, 2, 3, 4, 5, 6, 7]);
    const [b] = views(1, 8);
    f({ g: b });
    assert.equal(spans, 1, 'a view that cannot grow: span');
  });

  for (const [what, holder, name, fn] of [
    [
      'a Number predicate',
      Number,
      'isNaN',
      `function f(a, n) { for (let j = 0; j < n; j++) a[j] = Number.isNaN(a[j]) ? 0 : a[j]; }`,
    ],
    [
      'a Math function',
      Math,
      'abs',
      `function f(a, n) { for (let j = 0; j < n; j++) a[j] = Math.abs(a[j]); }`,
    ],
  ] as const)
    test(`${what} replaced by user code skips span: its calls run as without instrumentation`, () => {
      assert.ok(spanned(fn));
      const f = runInThisContext(compile(fn)) as (a: Float64Array, n: number) => void;
      const [a] = views(1, 8);
      const patched = holder as unknown as Record<string, (x: unknown) => unknown>;
      const builtin = patched[name];
      let calls = 0;
      patched[name] = (x: unknown) => {
        calls++;
        return builtin(x);
      };
      try {
        spans = 0;
        f(a, 3);
      } finally {
        patched[name] = builtin;
      }
      assert.equal(spans, 0);
      assert.equal(calls, 3);
      spans = 0;
      f(a, 3);
      assert.equal(spans, 1, 'the built-in again: span');
    });
});

/** Loops that keep their per-access checks (no span), each for the reason its name gives. */
const PER_ACCESS: Record<string, string> = {
  'an early exit (break)': `function f(a, n) { for (let j = 0; j < n; j++) { if (a[j] > 1) break; a[j] = 0; } }`,
  'an early exit (return)': `function f(a, n) { for (let j = 0; j < n; j++) { a[j] = 0; if (j > 3) return j; } }`,
  'an access under a condition': `function f(a, n) { let s = 0; for (let j = 0; j < n; j++) s += j > 2 ? a[j] : 0; return s; }`,
  'an access in an if': `function f(a, n) { for (let j = 0; j < n; j++) if (j > 2) a[j] = 1; }`,
  'a loop invariant read in the body': `function f(a) { for (let j = 0, n = a.length; j < n; j++) a[j] = n; }`,
  'a loop invariant assigned in the body': `function f(a) { for (let j = 0, n = a.length; j < n; j++) { a[j] = 1; n--; } }`,
  'a loop invariant read before its declaration (it throws)': `function f(a) { for (let j = 0, n = m, m = a.length; j < n; j++) a[j] = 1; }`,
  'a lower bound reading a loop invariant (it throws)': `function f(a) { for (let j = n, n = a.length; j < n; j++) a[j] = 1; }`,
  'loop invariants of a var header': `function f(a) { for (var j = 0, n = a.length; j < n; j++) a[j] = 1; }`,
  'a loop invariant that calls (Math.min)': `function f(a, b) { for (let j = 0, n = Math.min(a.length, b.length); j < n; j++) a[j] = b[j]; }`,
  'the length of a member view the loop does not access (o.h.length)': `function f(o) { for (let j = 0; j < o.h.length; j++) o.g[j] = 1; }`,
  'the length of a row the loop does not access (g[i + 1].length)': `function f(g, i) { for (let j = 0; j < g[i + 1].length; j++) g[i][j] = 1; }`,
  'a conditional read of an element no access before it read': `function f(a, n) { let s = 0; for (let j = 1; j < n; j++) { const x = a[j]; s += x > 1 ? a[j - 1] : 0; } return s; }`,
  'a conditional read after a write of its view': `function f(a, n) { let s = 0; for (let j = 0; j < n; j++) { const x = a[j]; a[j] = x * 2; s += x > 1 ? a[j] : 0; } return s; }`,
  'a conditional read whose index increments a counter': `function f(a, n) { let c = 0; let s = 0; for (let j = 0; j < n; j++) { const x = a[c]; s += x > 1 ? a[c++] : 0; } return s; }`,
  'a conditional write of an element read before': `function f(a, n) { for (let j = 0; j < n; j++) if (a[j] > 2) a[j] = 0; }`,
  'a Number function that converts its argument (Number.parseFloat)': `function f(a, n) { for (let j = 0; j < n; j++) a[j] = Number.parseFloat(a[j]); }`,
  'a call of a function that is not a pure Math one': `function f(a, g, n) { for (let j = 0; j < n; j++) a[j] = g(a[j]); }`,
  'a call of Math.random': `function f(a, n) { for (let j = 0; j < n; j++) a[j] = Math.random(); }`,
  'a spread argument': `function f(a, xs, n) { for (let j = 0; j < n; j++) a[j] = Math.max(...xs); }`,
  'a pure Math call whose object the body assigns': `function f(a, M, n) { for (let j = 0; j < n; j++) { a[j] = M.abs(a[j]); M = Math; } }`,
  'an index that is not affine (j * j)': `function f(a, n) { let s = 0; for (let j = 0; j < n; j++) s += a[j * j]; return s; }`,
  'an indirect index': `function f(a, idx, n) { for (let j = 0; j < n; j++) a[idx[j]] = 1; }`,
  'a bitwise operator on the loop variable (j & 3: not affine)': `function f(a, n) { let s = 0; for (let j = 0; j < n; j++) s += a[j & 3]; return s; }`,
  'a remainder by a variable (it may be 0: NaN)': `function f(a, i, m, n) { for (let j = 0; j < n; j++) a[j + (i % m)] = 1; }`,
  'a write before the read of its element (first access a write)': `function f(a, n) { for (let j = 1; j < n; j++) { a[j] = 1; a[j - 1] += a[j]; } }`,
  'a write read only at another index': `function f(a, n) { for (let j = 1; j < n; j++) a[j] = a[j - 1] + 1; }`,
  'a bound read through another property (a.size)': `function f(a) { for (let j = 0; j < a.size; j++) a[j] = 1; }`,
  'a computed length bound (a["length"])': `function f(a) { for (let j = 0; j < a['length']; j++) a[j] = 1; }`,
  'a length bound of a view the body assigns': `function f(a, b) { for (let j = 0; j < a.length; j++) { b[j] = 1; a = b; } }`,
  'the loop variable assigned in the body': `function f(a, n) { for (let j = 0; j < n; j++) { a[j] = 1; j += 1; } }`,
  'the view assigned in the body': `function f(a, b, n) { for (let j = 0; j < n; j++) { a[j] = 1; a = b; } }`,
  'an offset assigned in the loop': `function f(a, n) { let o = 0; for (let j = 0; j < n; j++) { a[j + o] = 1; o = 1; } }`,
  'a var in the body': `function f(a, n) { for (let j = 0; j < n; j++) { var x; a[j] = x; } }`,
  'a string literal': `function f(a, n) { for (let j = 0; j < n; j++) a[j] = 'x'; }`,
  'an in operator': `function f(a, o, n) { for (let j = 0; j < n; j++) a[j] = 'k' in o; }`,
  'a global read in the body': `function f(a, n) { for (let j = 0; j < n; j++) a[j] = someGlobal; }`,
  'a loop going down by ++ (j > 0; j++)': `function f(a, n) { for (let j = n; j > 0; j++) a[j] = 1; }`,
  'a loop going up by -- (j < n; j--)': `function f(a, n) { for (let j = 0; j < n; j--) a[-j] = 1; }`,
  'a view of the enclosing module (not analyzed as a local)': `function f(n) { for (let j = 0; j < n; j++) globalView[j] = 1; }`,
  'literal bounds of fewer than 16 iterations (the fast path costs less)': `function f(a) { for (let j = 0; j < 8; j++) a[j] = 1; }`,
  'literal bounds of fewer than 16 iterations, inclusive, step 2': `function f(a) { for (let j = -4; j <= 24; j += 2) a[j + 4] = 1; }`,
  'a body const that is not affine (j * j)': `function f(a, n) { for (let j = 0; j < n; j++) { const i = j * j; a[i] = 1; } }`,
  'a body let as an index': `function f(a, n) { for (let j = 0; j < n; j++) { let i = j + 1; a[i] = 1; } }`,
  'a body const read in an index before its declaration': `function f(a, n) { for (let j = 0; j < n; j++) { a[i] = 1; const i = j; } }`,
  'a body const over a variable the body assigns': `function f(a, n) { let o = 0; for (let j = 0; j < n; j++) { const i = j + o; a[i] = 1; o = 1; } }`,
  'a counter incremented under a condition': `function f(a, n) { let c = 0; for (let j = 0; j < n; j++) { a[c] = 1; if (j > 2) c++; } }`,
  'a counter incremented in a conditional expression': `function f(a, n) { let c = 0; for (let j = 0; j < n; j++) a[j > 2 ? c++ : c] = 1; }`,
  'a counter also assigned otherwise': `function f(a, n) { let c = 0; for (let j = 0; j < n; j++) { a[c++] = 1; c = c * 2; } }`,
  'a counter declared in the body': `function f(a, n) { for (let j = 0; j < n; j++) { let c = j; a[c++] = 1; } }`,
  'a decremented index': `function f(a, n) { let c = n; for (let j = 0; j < n; j++) a[c--] = 1; }`,
  'a counter that is a const (its increment throws)': `function f(a, n) { const c = 0; for (let j = 0; j < n; j++) a[c++] = 1; }`,
  'a counter in a bound': `function f(a, n) { let c = 0; for (let j = 0; j < c + n; j++) a[c++] = 1; }`,
  'an accumulator that is a const (its assignment throws)': `function f(a, n) { const s = 0; for (let j = 0; j < n; j++) s += a[j]; return s; }`,
  'a const of the body assigned (its assignment throws)': `function f(a, n) { for (let j = 0; j < n; j++) { const x = a[j]; x = 1; } }`,
  'a logical assignment to an element': `function f(a, n) { for (let j = 0; j < n; j++) a[j] ||= 1; }`,
  'an inner loop of no iteration': `function f(a, n) { for (let j = 0; j < n; j++) { for (let r = 0; r < 0; r++) a[j] += r; } }`,
  'an inner loop assigning its variable': `function f(a, n) { for (let j = 0; j < n; j++) { for (let r = 0; r < 4; r++) { a[j + r] = 1; r++; } } }`,
  'an inner loop with a break': `function f(a, n) { for (let j = 0; j < n; j++) { for (let r = 0; r < 4; r++) { a[j] += r; if (a[j] > 2) break; } } }`,
  'an inner var loop (its variable outlives it)': `function f(a, n) { for (let j = 0; j < n; j++) { for (var r = 0; r < 4; r++) a[j] += r; } }`,
  'an inner loop inside an inner loop': `function f(a, n) { for (let j = 0; j < n; j++) { for (let r = 0; r < 2; r++) { for (let s = 0; s < 2; s++) a[4 * j + 2 * r + s] = 1; } } }`,
  'an index in an inner loop that is not affine in the outer variable (k[j * j + r])': `function f(a, k, n) { for (let j = 0; j < n; j++) { for (let r = 0; r < 4; r++) a[j] += k[j * j + r]; } }`,
  'an inner loop calling a function that is not pure': `function f(a, g, n) { for (let j = 0; j < n; j++) { for (let r = 0; r < 4; r++) a[j] += g(r); } }`,
  'an inner loop under an if': `function f(a, n) { for (let j = 0; j < n; j++) { if (j > 1) for (let r = 0; r < 4; r++) a[j] += r; } }`,
  'a name an inner loop declares read after it (another variable)': `function f(a, n, t) { for (let j = 0; j < n; j++) { for (let r = 0; r < 4; r++) { const t = a[j]; } a[j] = t; } }`,
  'a coefficient of two parts (a[j * n * m])': `function f(a, n, m, c) { for (let j = 0; j < c; j++) a[j * n * m] = 1; }`,
  'a coefficient part the body assigns': `function f(a, n, c) { for (let j = 0; j < c; j++) { a[j * n] = 1; n = 2; } }`,
  'two terms of j with different parts (a[j * n + j * m])': `function f(a, n, m, c) { for (let j = 0; j < c; j++) a[j * n + j * m] = 1; }`,
  'a parity skip whose coefficient is a variable ((j * n) % 2)': `function f(a, n, c) { for (let j = 0; j < c; j++) { if ((j * n) % 2 === 0) continue; a[j] = 1; } }`,
  'a parity skip of an even coefficient ((2 * j) % 2)': `function f(a, n) { for (let j = 0; j < n; j++) { if ((2 * j) % 2 !== 0) continue; a[j] = 1; } }`,
  'a parity skip after another statement': `function f(a, n) { for (let j = 0; j < n; j++) { const x = 1; if (j % 2 === 0) continue; a[j] = x; } }`,
  'a skip by a remainder of 3': `function f(a, n) { for (let j = 0; j < n; j++) { if (j % 3 !== 0) continue; a[j] = 1; } }`,
  'a parity skip with an else': `function f(a, n) { for (let j = 0; j < n; j++) { if (j % 2 === 0) continue; else a[j] = 2; a[j] = 1; } }`,
  "a parity skip of an element's value": `function f(a, b, n) { for (let j = 0; j < n; j++) { if (b[j] % 2 === 0) continue; a[j] = 1; } }`,
  'a parity skip whose colour the body assigns': `function f(a, n) { let c = 0; for (let j = 0; j < n; j++) { if (j % 2 !== c) continue; a[j] = 1; c = 1; } }`,
  'a row indexed by the loop variable (g[j][i]: a column across rows)': `function f(g, n, i) { for (let j = 0; j < n; j++) g[j][i] = 1; }`,
  'a row of an array the loop also accesses as a view': `function f(g, n, i) { let s = 0; for (let j = 0; j < n; j++) s += g[i][j] + g[0]; return s; }`,
  'a row of an array the loop assigns': `function f(g, n, i) { for (let j = 0; j < n; j++) { g[i][j] = 1; g = [g[1]]; } }`,
  'a member view the body assigns (s.g = b)': `function f(s, b, n) { for (let j = 0; j < n; j++) { s.g[j] = 1; s.g = b; } }`,
  "a member view's object the body assigns (s = t)": `function f(s, t, n) { for (let j = 0; j < n; j++) { s.g[j] = 1; s = t; } }`,
  "a member view's object also accessed as a view (s.g[j] + s[j])": `function f(s, n) { let x = 0; for (let j = 0; j < n; j++) x += s.g[j] + s[j]; return x; }`,
  'a member number the body assigns (this.n = 1)': `function f(a) { for (let j = 0; j < this.n; j++) { a[j] = 1; this.n = 1; } }`,
  'a member number the body updates (s.n++)': `function f(a, s) { for (let j = 0; j < 9; j++) a[j + s.n++] = 1; }`,
  "a member number's object the body assigns (s = t)": `function f(a, s, t, n) { for (let j = 0; j < n; j++) { a[j] = s.w; s = t; } }`,
  'a member number of a view of the loop (a.size)': `function f(a, n) { for (let j = 0; j < n; j++) a[j] = a.size; }`,
  'a view length in the body (a.length, not a fixed-length bound)': `function f(a, n) { for (let j = 0; j < n; j++) a[j] = a.length; }`,
  'a computed member number (s["n"])': `function f(a, s) { for (let j = 0; j < s['n']; j++) a[j] = 1; }`,
  'a member of a member as a number (s.t.n)': `function f(a, s) { for (let j = 0; j < s.t.n; j++) a[j] = 1; }`,
  'a private member number (this.#n)': `class C { #n; f(a) { for (let j = 0; j < this.#n; j++) a[j] = 1; } }`,
  'an optional member number (s?.n)': `function f(a, s) { for (let j = 0; j < s?.n; j++) a[j] = 1; }`,
  "a global's member number (Math.PI)": `function f(a, n) { for (let j = 0; j < n; j++) a[j] = Math.PI * j; }`,
  "a member number of this in a derived class's constructor (this before super())": `class C extends Object { constructor(a) { for (let j = 0; j < this.n; j++) a[j] = 1; super(); } }`,
  'a captured const the body assigns (its assignment throws)': `function f(a, n) { const k = 1; return () => { for (let j = 0; j < n; j++) { a[j] = k; k = 2; } }; }`,
  'a captured view the body assigns': `function f(a, b, n) { return () => { for (let j = 0; j < n; j++) { a[j] = 1; a = b; } }; }`,
  "an enclosing function's function binding read as a number": `function f(a, n) { function g() {} return () => { for (let j = 0; j < n; j++) a[j] = g; }; }`,
  'a catch binding read as a number': `function f(a, n) { try { n(); } catch (e) { return () => { for (let j = 0; j < n; j++) a[j] = e; }; } }`,
  'a captured parameter of a function using arguments (which may alias it)': `function f(a, n) { arguments; return () => { for (let j = 0; j < n; j++) a[j] = 1; }; }`,
  'a captured binding of a function with a direct eval': `function f(a, n) { eval(''); return () => { for (let j = 0; j < n; j++) a[j] = 1; }; }`,
  'a captured let another closure assigns, with an opaque call (the call could assign it)': `function f(a, h, n) { let g = a; const set = (x) => { g = x; }; return () => { for (let j = 0; j < n; j++) { if (j > 3) continue; g[j] = 1; h(set); } }; }`,
  'a member number of a body const (its object a new one each iteration)': `function f(a, g, n) { for (let j = 0; j < n; j++) { const s = g; a[j] = s.w; } }`,
  'a member of a member (s.t.g[j])': `function f(s, n) { for (let j = 0; j < n; j++) s.t.g[j] = 1; }`,
  'a private member view (this.#g[j])': `class C { #g; f(n) { for (let j = 0; j < n; j++) this.#g[j] = 1; } }`,
  'an optional member view (s?.g[j])': `function f(s, n) { for (let j = 0; j < n; j++) s?.g[j]; }`,
  "a member view of a global's (state.g[j])": `function f(n) { for (let j = 0; j < n; j++) state.g[j] = 1; }`,
  "a member view of this in a derived class's constructor (this before super())": `class C extends Object { constructor(n) { for (let j = 0; j < n; j++) this.g[j] = 1; super(); } }`,
  "a member view of this in an arrow in a derived class's constructor": `class C extends Object { constructor(n) { const f = (m) => { for (let j = 0; j < m; j++) this.g[j] = 1; }; f(n); super(); } }`,
  'a counter the body declares, also assigned otherwise': `function f(a, n) { for (let j = 0; j < n; j++) { let c = 0; a[c++] = 1; c = 5; a[c] = 2; } }`,
  'a while loop whose update is not its last statement': `function f(a, n) { let j = 0; while (j < n) { j++; a[j] = 1; } }`,
  'a while loop that continues (it would skip the update)': `function f(a, n) { let j = 0; while (j < n) { if (a[j] > 1) { j++; continue; } a[j] = 1; j++; } }`,
  'a while loop whose body assigns its variable': `function f(a, n) { let j = 0; while (j < n) { a[j] = 1; j += a.length > 3 ? 1 : 2; j++; } }`,
  'a while loop of one statement': `function f(a, n) { let j = 0; while (j < n) j++; }`,
  'a while loop whose test is not on its variable': `function f(a, n) { let j = 0; let k = 0; while (k < n) { a[j] = 1; j++; } }`,
  'a loop over a variable declared before it that the body assigns': `function f(a, n) { let j; for (j = 0; j < n; j++) { a[j] = 1; j += 1; } }`,
  'a loop over a variable declared before it, from itself (j = j + 1)': `function f(a, n) { let j = 0; for (j = j + 1; j < n; j++) a[j] = 1; }`,
  'a loop over a const declared before it (its first assignment throws)': `function f(a, n) { const j = 0; for (j = 0; j < n; j++) a[j] = 1; }`,
  'a loop over a variable declared after it (in its temporal dead zone: it throws)': `function f(a, n) { for (j = 0; j < n; j++) a[j] = 1; let j; }`,
  'a while loop over a global variable': `function f(a, n) { while (g < n) { a[g] = 1; g++; } }`,
  'a loop bounded by !== whose update goes the other way than its step': `function f(a, n) { for (let j = 0; j !== n; j *= 2) a[j] = 1; }`,
};

describe('range checks: loops that keep per-access checks', () => {
  for (const [name, fn] of Object.entries(PER_ACCESS))
    test(name, () => assert.ok(!spanned(fn), `span in:\n${compile(fn)}`));
  test('a covered loop over a variable declared before it, with an opaque call: planned unless a closure assigns the variable', () => {
    const loop = (before: string) =>
      compile(
        `function f(a, h, n) { let j; ${before} for (j = 0; j < n; j++) { if (j > 3) continue; a[j] = 1; h(); } }`,
      );
    assert.match(loop(''), /__goldilocks\.covered\(/);
    assert.doesNotMatch(loop('const set = () => { j = 9; };'), /__goldilocks\.covered\(/);
  });
  test('an inner loop of more than 16 iterations: not unrolled, it takes a range check of its own', () => {
    // the body of the outer loop, without braces: put in a block with its guard
    const code = compile(
      `function f(a, n) { for (let j = 0; j < n; j++) for (let r = 0; r < 17; r++) a[j] += r; }`,
    );
    assert.equal(code.split('__goldilocks.span(').length, 2, code);
    assert.match(
      code,
      /for \(let j = 0; j < n; j\+\+\) \{ __gl\$1 = [^;]*__goldilocks\.span\(__gl\$m, 0, \(17\), 1,/,
    );
    assert.match(code, /= __gl\$5\)\); \} ;var /, "the block closed after the inner loop's statement");
  });
});

describe('range checks: a plan not taken leaves no temporary behind', () => {
  // the row temporaries a range plan allocates before a later rule refuses it (then the covered plan allocates its
  // own): given back, so the function declares only temporaries its code names
  test('a red-black sweep over rows of an array of views (refused as a range check, taken as a covered loop)', () => {
    const code = instrument(
      `export function sweep(g, N, i, colour) { for (let j = 1 + ((i + colour) & 1); j < N - 1; j += 2) g[i][j] = 0.5 * (g[i][j - 1] + g[i][j + 1]) + g[i - 1][j]; }`,
      { file: 'rows.mjs', module: true },
    ).code;
    assert.ok(code.includes('__goldilocks.covered('), code);
    const declared = /;var ([^;]*);\}/.exec(code)?.[1].split(', ') ?? [];
    assert.notEqual(declared.length, 0, code);
    // each name once in the declaration, and at least once where the code uses it (`__gl$1` not counted in `__gl$12`)
    const uses = (name: string) => code.split(name).filter((after, k) => k > 0 && !/^\d/.test(after)).length;
    const unused = declared.filter((name) => uses(name) < 2);
    assert.deepEqual(unused, [], code);
  });
});

/** Instruments `source` as a module: does its loop take the range check? */
const spannedModule = (source: string): boolean =>
  instrument(source, { file: 'ranges.mjs', module: true }).code.includes('__goldilocks.span(');
/** A loop calling `f` (declared by the module text before it) on each element. */
const callLoop = (f: string): string =>
  `${f}\nexport function g(a, n) { for (let j = 0; j < n; j++) a[j] = f(a[j], j); }`;

describe("range checks: a module's top-level loops", () => {
  const n = 'const n = Number(globalThis.n ?? 20);';
  test('a loop over top-level bindings declared before it takes the range check', () => {
    assert.ok(spannedModule(`const a = new Float64Array(8);\n${n}\nfor (let j = 0; j < n; j++) a[j] = j;`));
    assert.ok(
      spannedModule(`const a = new Float64Array(8);\nfor (let j = a.length - 1; j >= 0; j--) a[j] += 1;`),
    );
    // a let assigned after the loop: the same view throughout it (its body runs no other code)
    assert.ok(
      spannedModule(`let a = new Float64Array(8);\n${n}\nfor (let j = 0; j < n; j++) a[j] = j;\na = null;`),
    );
  });
  test('not over a binding declared after it (its temporal dead zone), nor in a script', () => {
    assert.ok(!spannedModule(`${n}\nfor (let j = 0; j < n; j++) a[j] = j;\nconst a = new Float64Array(8);`));
    const script = `const a = new Float64Array(8);\n${n}\nfor (let j = 0; j < n; j++) a[j] = j;`;
    assert.ok(!instrument(script, { file: 'ranges.js', module: false }).code.includes('__goldilocks.span('));
  });
  test("a CommonJS module's: its top level is the body of Node's wrapper function", () => {
    const script = `const a = new Float64Array(8);\n${n}\nfor (let j = 0; j < n; j++) a[j] = j;`;
    const options = { file: 'ranges.cjs', module: false, commonjs: true };
    assert.ok(instrument(script, options).code.includes('__goldilocks.span('));
    const late = `${n}\nfor (let j = 0; j < n; j++) a[j] = j;\nconst a = new Float64Array(8);`;
    assert.ok(!instrument(late, options).code.includes('__goldilocks.span('));
  });
});

describe("range checks: a function's loops over the module's top-level bindings (src/instrument/scope.ts moduleBinding)", () => {
  const sweep = `function sweep(c) {
    for (let i = 1; i < n - 1; i++)
      for (let j = 1 + ((i + c) & 1); j < n - 1; j += 2) g[i * n + j] = 0.25 * (g[i * n + j] + g[i * n + j - 1] + g[i * n + j + 1]);
  }`;
  test('a view and a bound of the module, a `const` or a `let`, in a loop nested without braces', () => {
    // the declarations, and the last one the loop reads (its end: the guard's test), or null: not the module's (an
    // enclosing function's parameters, `./scope.ts` capturedBinding: no test)
    for (const [decl, last] of [
      [
        'const g = new Float64Array(new SharedArrayBuffer(8 * 64)); const n = Number(globalThis.n ?? 8);',
        'const n = Number(globalThis.n ?? 8);',
      ],
      ['let g; let n = 8; export function set(x) { g = x; }', 'let n = 8;'],
      ['var g = null, n = 8;', 'var g = null, n = 8;'],
      ['function outer() { const g = null, n = 8; }', null],
    ] as const) {
      const source = last !== null ? `${decl}\nexport ${sweep}` : `function outer(g, n) { ${sweep} }`;
      const code = instrument(source, { file: 'ranges.mjs', module: true }).code;
      assert.equal(code.includes('__goldilocks.span('), true, code);
      if (last === null) {
        assert.doesNotMatch(code, /__gl\$k >=|__goldilocks\.declared/, code);
        continue;
      }
      // the guard tests that the declarations ran, then reads the bindings; a `let` another function assigns: it
      // first tests that the view is a TypedArray (an access of another object could run code that assigns it)
      const end = source.indexOf(last) + last.length;
      const typed = decl.includes('set(x)')
        ? 'typeof i === "number" && typeof c === "number" && typeof n === "number" && __goldilocks.typedArray(g) ? '
        : '';
      assert.ok(code.includes(`{ __gl$1 = __gl$k >= ${end} ? ${typed}!__goldilocks.shared(g) || `), code);
      assert.ok(code.includes(`${last};__gl$k = ${end};`), 'each declaration followed by its mark');
    }
    const script = `const g = new Float64Array(8), n = 8;\n${sweep}`;
    assert.ok(!instrument(script, { file: 'ranges.js', module: false }).code.includes('__goldilocks.span('));
    assert.ok(
      instrument(script, { file: 'ranges.cjs', module: false, commonjs: true }).code.includes(
        '__goldilocks.span(',
      ),
      "a CommonJS module's top level: the body of Node's wrapper function",
    );
  });
  test('not when the body assigns a `const` of the module, nor, with an opaque call, a `let` another function assigns', () => {
    const assigns = `const g = new Float64Array(8); const n = 8;\nexport function f() { for (let j = 0; j < 4; j++) { g[j] = 1; n = 2; } }`;
    assert.ok(!spannedModule(assigns));
    const opaque = (decl: string) =>
      `${decl}\nexport function f(h, n) { for (let j = 0; j < n; j++) { if (j > 3) continue; g[j] = 1; h(); } }`;
    assert.ok(
      instrument(opaque('const g = new Float64Array(8);'), {
        file: 'ranges.mjs',
        module: true,
      }).code.includes('__goldilocks.covered('),
    );
    assert.ok(
      !instrument(opaque('let g; export const set = (x) => { g = x; };'), {
        file: 'ranges.mjs',
        module: true,
      }).code.includes('__goldilocks.covered('),
      'the call could assign g',
    );
  });
  test('called before the declaration ran, the loop throws at its first access, as the plain code does', () => {
    const source = `export function f(n) { for (let j = 0; j < n; j++) G[j] = G[j] + 1; }\nconst G = globalThis.G;`;
    const code = instrument(source, { file: 'ranges.mjs', module: true }).code;
    assert.ok(code.includes('__goldilocks.span('), code);
    const body = code.replace('export function', 'function').replace(/\/\/# sourceMappingURL=.*$/s, '');
    const a = new Float64Array(new SharedArrayBuffer(8 * 4)).fill(1);
    (globalThis as { G?: Float64Array }).G = a;
    observe(new Map([[a, 'G']]));
    const early = runInThisContext(
      `() => { try { f(4); return 'ran'; } catch (e) { return e.name; } ${body}\n}`,
    );
    assert.equal(early(), 'ReferenceError');
    assert.equal(spans, 0, 'no span before the declaration ran');
    // a loop of no iteration reads nothing: it must not throw either (a guard reading G first would)
    const none = runInThisContext(
      `() => { try { f(0); return 'ran'; } catch (e) { return e.name; } ${body}\n}`,
    );
    assert.equal(none(), 'ran');
    const late = runInThisContext(`() => { ${body}\n f(4); return [...G]; }`);
    assert.deepEqual(late(), [2, 2, 2, 2]);
    assert.equal(spans, 1);
    delete (globalThis as { G?: Float64Array }).G;
  });
  test("a closure run before the enclosing function's const was declared throws where the plain code does", () => {
    const fn = `function main(a, m) {
      let r;
      try { sweep(m); r = 'ran'; } catch (e) { r = e.name; }
      const n = 4;
      const grid = a;
      sweep(4);
      return r;
      function sweep(k) { for (let j = 0; j < k; j++) grid[j] = n + j; }
    }`;
    const code = compile(fn);
    assert.match(code, /__goldilocks\.declared\(\(\) => \(grid, n\)\) \? /);
    for (const [m, expected] of [
      [4, 'ReferenceError'],
      [0, 'ran'],
    ] as const) {
      const [a] = views(1, 8);
      observe(new Map([[a, 'a']]));
      const f = runInThisContext(code) as (a: Float64Array, m: number) => string;
      assert.equal(f(a, m), expected);
      assert.equal(spans, 1, 'one span: the call after the declarations');
      assert.deepEqual([...a.slice(0, 4)], [4, 5, 6, 7]);
      assert.deepEqual([...seen].sort(), ['W a 0', 'W a 1', 'W a 2', 'W a 3']);
    }
  });

  test('member numbers of a binding read before its declaration ran: the loop throws where the plain code does', () => {
    const source = `export function f(a) { for (let j = 0; j < S.n; j++) a[j] = a[j] + S.w; }
      export function g(a, n) { for (let j = 0; j < n; j++) a[j] = S.w; }\nconst S = { n: 4, w: 1 };`;
    const code = instrument(source, { file: 'ranges.mjs', module: true }).code;
    assert.equal(code.split('__goldilocks.span(').length, 3, code);
    const body = code.replaceAll('export function', 'function').replace(/\/\/# sourceMappingURL=.*$/s, '');
    const a = new Float64Array(new SharedArrayBuffer(8 * 4)).fill(1);
    observe(new Map([[a, 'a']]));
    const early = runInThisContext(
      `(a, n) => { const tried = []; for (const h of [() => f(a), () => g(a, n)]) try { h(); tried.push('ran'); } catch (e) { tried.push(e.name); } return tried; ${body}\n}`,
    );
    assert.deepEqual(early(a, 4), ['ReferenceError', 'ReferenceError']);
    assert.equal(spans, 0, 'no span before the declaration ran');
    // a loop of no iteration does not read S.w: it must not throw either (a guard reading S first would)
    assert.deepEqual(early(a, 0), ['ReferenceError', 'ran']);
    const late = runInThisContext(`(a) => { ${body}\n f(a); return [...a]; }`);
    assert.deepEqual(late(a), [2, 2, 2, 2]);
    assert.equal(spans, 1);
  });
});

describe("range checks: calls of the module's pure functions (src/instrument/callees.ts)", () => {
  const PURE: Record<string, string> = {
    'arithmetic, an if, a conditional and locals (IDEA mul)': `function f(a, b) {
      if (a === 0) return (0x10001 - b) & 0xffff;
      const p = a * b;
      let q = p % 0x10001;
      q = b === 0 ? -q : q;
      return q & 0xffff;
    }`,
    'no return (undefined)': 'function f(x, y) { x += y; }',
  };
  for (const [name, f] of Object.entries(PURE))
    test(`pure: ${name}`, () => assert.ok(spannedModule(callLoop(f)), callLoop(f)));
  const IMPURE: Record<string, string> = {
    'a throw': 'function f(x) { if (x > 1) throw new Error("x"); return x; }',
    'a loop (it may not end)': 'function f(x) { while (x > 1) x--; return x; }',
    'a call (recursion: the stack)': 'function f(x) { return x > 1 ? f(x - 1) : x; }',
    'a property read': 'function f(x, o) { return x + o.length; }',
    'a module variable (its temporal dead zone)': 'let k = 1;\nfunction f(x) { return x * k; }',
    'a global (undefined)': 'function f(x) { return x === undefined ? 0 : x; }',
    'a local read before its declaration': 'function f(x) { const y = x + z; const z = 1; return y; }',
    'a const assigned': 'function f(x) { const y = 1; y = x; return y; }',
    this: 'function f(x) { return this === x; }',
    arguments: 'function f(x) { return arguments.length; }',
    'a default parameter': 'function f(x, y = 1) { return x + y; }',
    'a string literal': 'function f(x) { return x + "1"; }',
    'an async function': 'async function f(x) { return x; }',
    'a generator': 'function* f(x) { yield x; }',
    'a function the module assigns': 'function f(x) { return x; }\nexport function h() { f = Math.abs; }',
  };
  for (const [name, f] of Object.entries(IMPURE))
    test(`per-access: ${name}`, () => assert.ok(!spannedModule(callLoop(f)), callLoop(f)));
  test('per-access: a function of a script (a property of the global object)', () => {
    const source = callLoop('function f(x) { return x; }').replace('export ', '');
    assert.ok(!instrument(source, { file: 'ranges.js', module: false }).code.includes('__goldilocks.span('));
  });
  test('per-access: a local function shadowing the module one', () => {
    const source = `function f(x) { return x; }
      export function g(a, n) { const f = (x) => x; for (let j = 0; j < n; j++) a[j] = f(a[j]); }`;
    assert.ok(!spannedModule(source));
  });
});

describe('Hooks.fixedLength (the test of a V.length bound)', () => {
  const shared = () => new Float64Array(new SharedArrayBuffer(32));
  test('a view over a SharedArrayBuffer that cannot grow, and its subarray: fixed', () => {
    assert.equal(fixedLength(shared()), true);
    assert.equal(fixedLength(shared().subarray(1, 3)), true);
  });
  test('not over shared memory, not a view, or over a growable buffer: not fixed', () => {
    assert.equal(fixedLength(new Float64Array(4)), false);
    assert.equal(fixedLength([1, 2]), false);
    assert.equal(fixedLength({ length: 3 }), false);
    assert.equal(fixedLength(new Float64Array(growable(32, 64))), false);
    assert.equal(fixedLength(new Float64Array(growable(32, 64), 0, 2)), false);
  });
  test('a length read that would run other code or find another property: not fixed', () => {
    const own = shared();
    Object.defineProperty(own, 'length', { value: 2 });
    assert.equal(fixedLength(own), false);
    const proxied = shared();
    Object.setPrototypeOf(proxied, new Proxy(Float64Array.prototype, {}));
    assert.equal(fixedLength(proxied), false);
    const shadowed = shared();
    Object.setPrototypeOf(shadowed, Object.create(Float64Array.prototype, { length: { get: () => 1 } }));
    assert.equal(fixedLength(shadowed), false);
  });
});

/** Runs the instrumented `fn` on fresh views with `covered` answering `answer` (see {@link runOnce}). */
const runCovered = (fn: string, args: (v: Float64Array[]) => unknown[], count: number, answer: number) =>
  runOnce(fn, args, count, false, answer);

const coveredIn = (fn: string): boolean => compile(fn).includes('__goldilocks.covered(');

/** Covered loops (`continue`, `break`, conditional accesses): one `covered` check each, no `span`. */
const COVERED: Record<
  string,
  { fn: string; args: (v: Float64Array[]) => unknown[]; views?: number; outside?: string[] }
> = {
  "moldyn's force loop (continue past conditional compound writes, an outer loop variable in the bounds)": {
    fn: `function forces(pos, acc, p, base) {
      let e = 0;
      for (let i = 0; i < p; i++) {
        const xi = pos[3 * i];
        for (let j = i + 1; j < p; j++) {
          let xx = xi - pos[3 * j];
          if (xx < 0) xx = -xx;
          else if (xx > 6) xx -= 6;
          const rd = xx * xx;
          if (rd > 4) continue;
          e += rd;
          acc[base + 3 * j] -= xx;
          acc[base + 3 * j + 1] += rd;
        }
      }
      return e;
    }`,
    args: ([pos, acc]) => [pos, acc, 12, 2],
    views: 2,
    outside: Array.from({ length: 12 }, (_, i) => `R a ${3 * i}`).sort(), // pos[3 * i], in the outer loop
  },
  'a break': {
    fn: `function f(a, n) { let s = 0; for (let j = 0; j < n; j++) { if (a[j] > 3) break; s += a[j]; } return s; }`,
    args: ([a]) => [a, 30],
  },
  'accesses under ?: and in an if, a write before its read': {
    fn: `function f(a, b, n) {
      let s = 0;
      for (let j = 1; j < n; j++) {
        s += j % 3 === 0 ? a[j] : b[j - 1];
        if (s > 10) b[j] = s;
        a[j - 1] = s;
      }
      return s;
    }`,
    args: ([a, b]) => [a, b, 20],
    views: 2,
  },
  'a member number (box.k: read by the guard with Hooks.row, tested to be a number)': {
    fn: `function f(a, box, n) { let s = 0; for (let j = 0; j < n; j++) { if (j > 1) continue; s += a[j] * box.k; } return s; }`,
    args: ([a]) => [a, { k: 3 }, 10],
  },
};

describe('covered loops: one cover check, a bit per access', () => {
  for (const [name, c] of Object.entries(COVERED))
    test(name, () => {
      assert.ok(coveredIn(c.fn) && !spanned(c.fn), `not covered:\n${compile(c.fn)}`);
      const per = runCovered(c.fn, c.args, c.views ?? 1, 0);
      const plain = runCovered(c.fn, c.args, c.views ?? 1, -1);
      assert.ok(per.seen.length > 0);
      assert.deepEqual(plain.seen, c.outside ?? [], 'every bit set: no per-access check in the covered loop');
      assert.deepEqual(plain.result, per.result);
      assert.deepEqual(plain.after, per.after);
      assert.ok(plain.covers > 0);
    });

  test("an access whose bit is clear keeps its per-access check, the others' run plain", () => {
    const fn = `function f(a, b, n) { let s = 0; for (let j = 0; j < n; j++) { s += a[j]; if (s > 4) continue; b[j] = s; } return s; }`;
    const both = runCovered(fn, ([a, b]) => [a, b, 10], 2, 0);
    const reads = runCovered(fn, ([a, b]) => [a, b, 10], 2, 1);
    assert.deepEqual(
      reads.seen,
      both.seen.filter((x) => x.startsWith('W b')),
    );
    assert.ok(reads.seen.length > 0);
    assert.deepEqual(reads.after, both.after);
  });

  test('views that are not shared: every bit set, no cover check', () => {
    const f = runInThisContext(
      compile(
        `function f(a, n) { for (let j = 0; j < n; j++) { if (j === 1) continue; a[j] = j; } return a; }`,
      ),
    ) as (a: Float64Array, n: number) => Float64Array;
    covers = 0;
    bits = 0;
    assert.deepEqual([...f(new Float64Array(3), 3)], [0, 0, 2]);
    assert.equal(covers, 0);
  });

  /** A loop that reads `a` and, at element 3, writes `box.seen`: the setter of `box` synchronizes when `sync`. */
  const opaque = `function f(a, box, n) { let s = 0; for (let j = 0; j < n; j++) { s += a[j]; if (j === 3) box.seen = j; } return s; }`;
  const box = (sync: boolean) => ({
    set seen(_v: number) {
      if (sync) syncs.n++;
    },
  });
  test('an opaque operation that synchronizes sends the accesses after it to their per-access checks', () => {
    assert.ok(coveredIn(opaque) && compile(opaque).includes('__goldilocks.syncs.n'), compile(opaque));
    const quiet = runCovered(opaque, ([a]) => [a, box(false), 10], 1, 1);
    assert.deepEqual(quiet.seen, [], 'no synchronization: every access plain');
    const synced = runCovered(opaque, ([a]) => [a, box(true), 10], 1, 1);
    assert.deepEqual(
      synced.seen,
      [4, 5, 6, 7, 8, 9].map((k) => `R a ${k}`),
      'the elements read after the setter synchronized',
    );
    assert.equal(synced.result, quiet.result);
  });

  test("a module's number constants stand for their literals in a covered loop's indices", () => {
    const source = `const S = 3; const LIMIT = 2.5;
      export function f(a, n) { let s = 0; for (let r = 0; r < n; r++) { const b = r * S; if (a[b] > LIMIT) continue; s += a[b + 1]; } return s; }`;
    const code = instrument(source, { file: 'ranges.mjs', module: true }).code;
    assert.match(
      code,
      /__goldilocks\.covered\(__gl\$m, 0, \(n\), 1, 0, \[\], \[a, 0, \(\(0 \* \(3\)\)\), 3, 0,/,
    );
    assert.doesNotMatch(
      code,
      /typeof (S|LIMIT)/,
      'a constant is not read by the guard (its temporal dead zone)',
    );
    const script = instrument(source.replace('export ', ''), { file: 'ranges.js', module: false }).code;
    assert.ok(
      !script.includes('__goldilocks.covered('),
      'not in a script: its top-level bindings are global',
    );
  });

  test("a module's number constants in a range-checked loop: its guard first tests they are initialized", () => {
    const source = `export function f(a, n) { for (let j = 0; j < n; j++) a[j] = a[j] * SCALE + OFFSET; }
      const SCALE = 2;
      const OFFSET = -1;`;
    const code = instrument(source, { file: 'ranges.mjs', module: true }).code;
    const at = (name: string) => source.indexOf(name === 'SCALE' ? '2;' : '-1;');
    assert.match(code, /const SCALE = \(__gl\$k = \d+, 2\);/);
    assert.match(code, /const OFFSET = \(__gl\$k = \d+, -1\);/);
    assert.ok(code.includes(`__gl$k >= ${at('OFFSET')} && `), code);
    assert.ok(code.includes('__goldilocks.span('), code);
    assert.match(code, /var [^;]*__gl\$k\b/, 'declared in the trailer');
    // evaluated as a script whose top level is the module's: f called before the constants are initialized (their
    // temporal dead zone) must throw as the plain code does, without its guard reading them
    const body = code.replace('export function', 'function').replace(/\/\/# sourceMappingURL=.*$/s, '');
    const a = new Float64Array(new SharedArrayBuffer(8 * 4)).fill(1);
    observe(new Map([[a, 'a']]));
    const early = runInThisContext(
      `(a) => { try { f(a, 4); return 'ran'; } catch (e) { return e.name; } ${body}\n}`,
    );
    assert.equal(early(a), 'ReferenceError');
    assert.equal(spans, 0, 'no span before the constants are initialized');
    assert.deepEqual([...seen], ['R a 0'], 'the per-access check of the first read, then the throw');
    const late = runInThisContext(`(a) => { ${body}\n f(a, 4); return [...a]; }`);
    assert.deepEqual(late(a), [1, 1, 1, 1]);
    assert.equal(spans, 1);
  });

  const NOT_COVERED: Record<string, string> = {
    'a labeled continue': `function f(a, n) { o: for (let j = 0; j < n; j++) { if (a[j] > 1) continue o; a[j] = 0; } }`,
    'a return': `function f(a, n) { for (let j = 0; j < n; j++) { if (a[j] > 1) return j; a[j] = 0; } }`,
    'a call of a function that is not a pure Math one': `function f(a, g, n) { for (let j = 0; j < n; j++) { if (j > 1) continue; a[j] = g(j); } }`,
    'a declaration in an if': `function f(a, n) { for (let j = 0; j < n; j++) { if (j > 1) { const x = a[j]; } } }`,
    'an index variable the body assigns': `function f(a, n) { let o = 0; for (let j = 0; j < n; j++) { if (j > 1) continue; a[j + o] = 1; o = 1; } }`,
    // a `continue` may skip the increment: the counter's value at an index is not c at entry + P·t
    'a counter index after a continue': `function f(a, b, n) { let k = 0; for (let j = 0; j < n; j++) { b[k++] = a[j]; if (a[j] > 1) continue; k++; } }`,
    // the element read would run after a getter of `box.set` or of a global `box`, before the test of the epoch
    'an opaque operation whose operand reads an element': `function f(a, box, n) { for (let j = 0; j < n; j++) { if (j > 1) continue; box.set(a[j]); } }`,
    // the call could change the index through the closure
    'an index variable a closure assigns, with an opaque call': `function f(a, n) { let o = 0; const g = () => { o = 1; }; for (let j = 0; j < n; j++) { if (j > 1) continue; a[j + o] = 1; g(); } }`,
    // the call could set the loop's `var` back to elements the cover check never checked (review-var-rewind.mjs)
    'a var loop variable a closure assigns, with an opaque call': `function f(a, n) { const g = () => { j = 0; }; for (var j = 4; j < n; j++) { if (j > 5) continue; a[j] = 1; g(); } }`,
    // a getter's value may be an object whose valueOf runs code at any operator
    'a property read of a property (box.t.k: not a member number)': `function f(a, box, n) { let s = 0; for (let j = 0; j < n; j++) { if (j > 1) continue; s += a[j] * box.t.k; } return s; }`,
    // the call could assign the member number the guard read
    'a member number, with an opaque call': `function f(a, box, n) { let s = 0; for (let j = 0; j < n; j++) { if (j > 1) continue; s += a[j] * box.k; box.seen = j; } return s; }`,
  };
  for (const [name, fn] of Object.entries(NOT_COVERED))
    test(`not covered: ${name}`, () => assert.ok(!coveredIn(fn) && !spanned(fn), compile(fn)));
});

/**
 * for…of loops over TypedArrays (`src/instrument/for-of.ts`): each taking the range check, with the indexed loop it
 * stands for (`for (let k = 0; k < a.length; k++) { const x = a[k]; BODY }`), whose per-access checks see the
 * accesses the for…of's per-element checks would (the runtime's iterator, not installed here, checks each element
 * right before it reads it).
 */
const FOR_OF: Record<
  string,
  { fn: string; indexed: string; args: (v: Float64Array[]) => unknown[]; views?: number }
> = {
  'a sum': {
    fn: `function f(a) { let s = 0; for (const x of a) s += x; return s; }`,
    indexed: `function f(a) { let s = 0; for (let k = 0; k < a.length; k++) { const x = a[k]; s += x; } return s; }`,
    args: ([a]) => [a],
  },
  'a counter write into a second view, the binding a let it assigns, statements without semicolons': {
    fn: `function f(a, b) {
        let c = 3
        for (let x of a) {
          x *= 2
          b[c++] = x + Math.sqrt(x)
        }
        return c
      }`,
    indexed: `function f(a, b) {
        let c = 3;
        for (let k = 0; k < a.length; k++) { let x = a[k]; x *= 2; b[c++] = x + Math.sqrt(x); }
        return c;
      }`,
    args: ([a, b]) => [a.subarray(0, 30), b],
    views: 2,
  },
  'labeled, the body of an if with an else, its body an if/else and a write without semicolons': {
    fn: `function f(a, b) {
      let s = 0
      let c = 0
      if (a.length > 0)
        outer: for (const x of a) {
          if (x > 10) s += x
          else s -= x
          b[c++] = s
        }
      else s = -1
      return s
    }`,
    indexed: `function f(a, b) {
      let s = 0;
      let c = 0;
      if (a.length > 0) for (let k = 0; k < a.length; k++) { const x = a[k]; if (x > 10) s += x; else s -= x; b[c++] = s; }
      else s = -1;
      return s;
    }`,
    args: ([a, b]) => [a, b],
    views: 2,
  },
  'an element of the view itself read then written at an invariant index, the loop the body of an if': {
    fn: `function f(a, i) { if (i > 0) for (const x of a) a[i] += x; return a[i]; }`,
    indexed: `function f(a, i) { if (i > 0) for (let k = 0; k < a.length; k++) { const x = a[k]; a[i] += x; } return a[i]; }`,
    args: ([a]) => [a, 5],
  },
};

describe('range checks: for…of loops over TypedArrays (src/instrument/for-of.ts)', () => {
  for (const [name, c] of Object.entries(FOR_OF))
    test(`${name}: the accesses of the indexed loop's per-access checks, one span`, () => {
      assert.equal(spanned(c.fn), true);
      assert.equal(spanned(c.indexed), true);
      const count = c.views ?? 1;
      const indexed = runOnce(c.indexed, c.args, count, false);
      const plain = runOnce(c.fn, c.args, count, false);
      const ranged = runOnce(c.fn, c.args, count, true);
      assert.deepEqual(ranged.seen, indexed.seen);
      assert.deepEqual(ranged.result, indexed.result);
      assert.deepEqual(ranged.after, indexed.after);
      assert.deepEqual(ranged.result, plain.result);
      assert.deepEqual(ranged.after, plain.after);
      assert.equal(ranged.spans, 1);
    });

  /** Runs the instrumented sum over `o` (range checks on): its result, or the name of the error it threw. */
  const sum = (o: unknown): unknown => {
    observe(new Map());
    const f = runInThisContext(compile(FOR_OF['a sum'].fn)) as (a: unknown) => unknown;
    try {
      return f(o);
    } catch (e) {
      return (e as Error).name;
    }
  };
  const shared = (): Float64Array => {
    const a = new Float64Array(new SharedArrayBuffer(8 * 20));
    for (let k = 0; k < 20; k++) a[k] = k;
    return a;
  };

  test('a view of its own Symbol.iterator: iterated as written, no span', () => {
    const a = shared();
    Object.defineProperty(a, Symbol.iterator, {
      *value() {
        yield 7;
      },
    });
    assert.equal(sum(a), 7);
    assert.equal(spans, 0);
  });

  test('%ArrayIteratorPrototype%.next patched by user code: it runs, no span', () => {
    const proto = Object.getPrototypeOf([][Symbol.iterator]()) as { next: (this: unknown) => unknown };
    const next = proto.next;
    const f = runInThisContext(compile(FOR_OF['a sum'].fn)) as (a: unknown) => unknown;
    const a = shared();
    observe(new Map());
    let calls = 0;
    proto.next = function (this: unknown) {
      calls++;
      return next.call(this);
    };
    try {
      assert.equal(f(a), 190); // only this loop runs meanwhile: 20 elements, then done
    } finally {
      proto.next = next;
    }
    assert.equal(calls, 21);
    assert.equal(spans, 0);
  });

  test('a Proxy of a view, a DataView (not iterable), an Array, a Set, a detached view: as written, no span', () => {
    assert.equal(sum(new Proxy(shared(), {})), 'TypeError');
    assert.equal(sum(new DataView(new SharedArrayBuffer(8))), 'TypeError');
    assert.equal(sum([1, 2, 3]), 6);
    assert.equal(sum(new Set([4, 5])), 9);
    const buffer = new ArrayBuffer(16);
    const detached = new Float64Array(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    assert.equal(sum(detached), 'TypeError'); // its iteration throws; its length reads 0
    assert.equal(spans, 0);
  });

  test("over an Array, the for…of as written: a shared view's accesses keep their per-access checks", () => {
    const fn = `function f(arr, b) { let c = 2; for (const v of arr) b[c++] = v; return c; }`;
    assert.equal(compile(fn).includes('typedIteration('), true);
    const run = runOnce(fn, ([b]) => [[7, 8, 9], b], 1, true);
    assert.deepEqual(run.seen, ['W a 2', 'W a 3', 'W a 4']);
    assert.deepEqual(run.after[0].slice(2, 5), [7, 8, 9]);
    assert.equal(run.result, 5);
    assert.equal(run.spans, 0);
  });

  test("over an iterable whose iteration assigns the loop's view: the for…of's accesses keep their checks", () => {
    const fn = `function f(shared) {
      let b = new Float64Array(4);
      const it = { *[Symbol.iterator]() { yield 7; b = shared; yield 8; } };
      let c = 0;
      for (const v of it) b[c++] = v;
      return c;
    }`;
    assert.equal(compile(fn).includes('typedIteration('), true);
    const run = runOnce(fn, ([b]) => [b], 1, true);
    assert.deepEqual(run.seen, ['W a 1']);
    assert.deepEqual(run.after[0].slice(0, 3), [1, 8, 2]);
    assert.equal(run.spans, 0);
  });

  test("a closure's view read in its temporal dead zone: the loop throws at that access, after the iteration before it", () => {
    const fn = `function f(a) {
      const run = () => {
        let s = 0;
        try { for (const x of a) { s += x; b[0] = s; } } catch (e) { return e.name + ' ' + s; }
        return 'none';
      };
      const out = run();
      let b = a;
      return out;
    }`;
    assert.equal(compile(fn).includes('typedIteration('), true);
    for (const a of [Float64Array.of(1, 2), views(1, 4)[0]]) {
      const f = runInThisContext(compile(fn)) as (a: unknown) => unknown;
      assert.equal(f(a), 'ReferenceError 1');
    }
  });

  test('a view not over shared memory: the same sum, no span', () => {
    assert.equal(sum(Float64Array.of(1, 2, 3)), 6);
    assert.equal(spans, 0);
  });

  test("a number operand that is not a number (its valueOf detaches the view's buffer): the for…of as written", () => {
    const fn = `function f(a, o) { let s = 0; for (const x of a) s += x * o; return s; }`;
    const f = runInThisContext(compile(fn)) as (a: unknown, o: unknown) => unknown;
    const a = Float64Array.of(1, 2, 3);
    const o = {
      valueOf() {
        structuredClone(a.buffer, { transfer: [a.buffer] });
        return 1;
      },
    };
    observe(new Map());
    // the iterator's next element throws on the detached buffer; an indexed loop would end at the length, now 0
    assert.throws(() => f(a, o), TypeError);
    assert.equal(spans, 0);
  });

  test('a body that calls a function, or that breaks at element k: not planned, the for…of as written', () => {
    const call = `function f(a, g) { let s = 0; for (const x of a) s += g(x); return s; }`;
    const broken = `function f(a, k) { let s = 0; for (const x of a) { if (x >= k) break; s += x; } return s; }`;
    for (const fn of [call, broken]) assert.equal(compile(fn).includes('typedIteration('), false);
    observe(new Map());
    const a = shared();
    assert.equal((runInThisContext(compile(broken)) as (a: unknown, k: number) => number)(a, 5), 10);
    assert.equal(spans, 0);
    assert.equal(covers, 0);
  });

  test('not planned: a var or an assigned binding, a destructuring, a member expression iterated, for await', () => {
    for (const fn of [
      `function f(a) { let s = 0; for (var x of a) s += x; return s; }`,
      `function f(a) { let s = 0, x; for (x of a) s += x; return s; }`,
      `function f(a) { let s = 0; for (const [x] of a) s += x; return s; }`,
      `function f(o) { let s = 0; for (const x of o.a) s += x; return s; }`,
      `async function f(a) { let s = 0; for await (const x of a) s += x; return s; }`,
    ])
      assert.equal(compile(fn).includes('typedIteration('), false, fn);
  });
});

describe('Hooks.typedIteration (the test of a for…of loop over a view)', () => {
  const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype) as { values: unknown };
  const builtin = typedIteration(new Map());
  const view = () => new Float64Array(new SharedArrayBuffer(8 * 16));
  test('a TypedArray, shared or not, a subarray, a subclass without an iterator of its own: the built-in one', () => {
    assert.equal(builtin(view()), true);
    assert.equal(builtin(new Int32Array(8)), true);
    assert.equal(builtin(view().subarray(1, 9)), true);
    assert.equal(builtin(new (class extends Uint8Array {})(16)), true);
  });
  test("the runtime's replacement of values, by Runtime.originals", () => {
    const replaced = function values() {};
    const a = view();
    Object.defineProperty(a, Symbol.iterator, { value: replaced });
    assert.equal(builtin(a), false);
    assert.equal(typedIteration(new Map([[replaced, { original: TypedArrayPrototype.values }]]))(a), true);
    assert.equal(typedIteration(new Map([[replaced, { original: replaced }]]))(a), false);
  });
  test('not a TypedArray, no element, or an iteration or length that user code replaced: not built-in', () => {
    assert.equal(builtin([1, 2]), false);
    assert.equal(builtin(new DataView(new ArrayBuffer(8))), false);
    assert.equal(builtin(new Proxy(view(), {})), false);
    assert.equal(builtin(new Float64Array(0)), false);
    assert.equal(builtin(view().subarray(1, 8)), false); // fewer elements than a range check takes
    const own = view();
    Object.defineProperty(own, 'length', { value: 2 });
    assert.equal(builtin(own), false);
    const proxied = view();
    Object.setPrototypeOf(proxied, new Proxy(Float64Array.prototype, {}));
    assert.equal(builtin(proxied), false);
    const getter = view();
    Object.defineProperty(getter, Symbol.iterator, { get: () => TypedArrayPrototype.values });
    assert.equal(builtin(getter), false);
    const values = Float64Array.prototype[Symbol.iterator];
    Object.defineProperty(Float64Array.prototype, Symbol.iterator, { value: values, configurable: true });
    try {
      assert.equal(builtin(view()), true); // the same function, found one object earlier
      Object.defineProperty(Float64Array.prototype, Symbol.iterator, { value: () => [].values() });
      assert.equal(builtin(view()), false);
    } finally {
      delete (Float64Array.prototype as unknown as Record<symbol, unknown>)[Symbol.iterator];
    }
  });
});
