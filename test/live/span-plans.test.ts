/**
 * Loop plans (`src/live/span-plans.ts`): a range checker that keeps the plans of its last loops hands the checker the
 * same runs, and leaves the same filter, as one that derives every plan afresh, on random sequences of loops of a few
 * shapes at random shifts, epochs and verdicts (fast-check, with shrinking).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { SiteFunction } from '../../src/hooks/contract.js';
import { filterBits, newFilter } from '../../src/live/filter.js';
import { STATS } from '../../src/live/memory/state.js';
import type { Shadow } from '../../src/live/shadow/goldilocks.js';
import { Spans, type SpanView, TOUCHED } from '../../src/live/spans.js';

const WORDS = 96;
const TYPES = [Float64Array, Int32Array, Int16Array, Uint8Array] as const;

interface Shape {
  /** Per access: view variable (0 or 1), first index relative to the loop's base, kind (0 read, 1 write), site. */
  accesses: Array<[number, number, number, number]>;
  /** Per view variable: its stride. */
  strides: [number, number];
  count: number;
}
interface Call {
  shape: number;
  base: number;
  /** A new epoch before the call. */
  next: boolean;
  /** The checker's verdict: every access checked (true) or a conflict (false). */
  answer: boolean;
  /** The view shared or not (undefined view: memory of the thread alone). */
  shared: [boolean, boolean];
  /** The two view variables name each other's array (a matrix's rows as views: other views, the same shapes). */
  swap: boolean;
}

const shape: fc.Arbitrary<Shape> = fc.record({
  accesses: fc.array(
    fc.tuple(
      fc.integer({ min: 0, max: 1 }),
      fc.integer({ min: -12, max: 12 }),
      fc.integer({ min: 0, max: 1 }),
      fc.integer({ min: 0, max: 4 }),
    ),
    { minLength: 1, maxLength: 5 },
  ),
  strides: fc.tuple(fc.constantFrom(-1, 0, 1, 2, 3, 16), fc.constantFrom(-1, 1, 2)),
  count: fc.integer({ min: 1, max: 24 }),
});
/** True but one time in `n`. */
const mostly = (n: number): fc.Arbitrary<boolean> => fc.integer({ min: 0, max: n - 1 }).map((x) => x !== 0);
const call = (shapes: number): fc.Arbitrary<Call> =>
  fc.record({
    shape: fc.integer({ min: 0, max: shapes - 1 }),
    base: fc.integer({ min: 0, max: 70 }),
    next: fc.boolean(),
    answer: mostly(5),
    shared: fc.tuple(mostly(8), mostly(8)),
    swap: fc.boolean(),
  });

/**
 * A range checker over two views from byte `off` of their buffers, of types `T` and `U`, of 80 elements and `m`,
 * recording what it hands over.
 */
function harness(T: (typeof TYPES)[number], U: (typeof TYPES)[number], m: number, off: number) {
  const arrays = [T, U].map((X, i) => {
    const n = i === 0 ? 80 : m;
    return new X(new SharedArrayBuffer(off + 8 * Math.ceil((n * X.BYTES_PER_ELEMENT) / 8)), off, n);
  });
  const views: SpanView[] = arrays.map((a, i) => ({
    id: i + 1,
    base: 1024 + 4096 * i,
    off,
    bpe: a.BYTES_PER_ELEMENT,
    len: a.length,
    ...newFilter(WORDS),
    touched: new Int32Array(TOUCHED),
  }));
  const state = { epoch: 1, answer: true, shared: [true, true], sites: 0 };
  const given: number[][] = [];
  const shadow = {
    rangeChecks: true,
    counts: new Float64Array(STATS.length),
    accessRuns(runs: readonly number[], pages: Int32Array, nPages: number): boolean {
      given.push([...runs], Array.from(pages.subarray(0, nPages)));
      return state.answer;
    },
  } as unknown as Shadow;
  const context = {
    shadow,
    viewAt: (o: ArrayBufferView) => {
      const i = arrays.indexOf(o as never);
      return i >= 0 && state.shared[i] ? views[i] : undefined;
    },
    epoch: () => state.epoch,
    siteOf: (_m: SiteFunction, i: number) => {
      state.sites++;
      return 100 + i;
    },
    counted: () => {},
    alone: () => false,
  };
  return { arrays, views, state, given, context };
}

const m = (() => 'm') as unknown as SiteFunction;

/** Runs `calls` of `shapes`, with a checker made `fresh` for each call or kept; what it handed over and left. */
function run(
  shapes: Shape[],
  calls: Call[],
  [T, U, n]: [(typeof TYPES)[number], (typeof TYPES)[number], number],
  off: number,
  fresh: boolean,
) {
  const h = harness(T, U, n, off);
  let spans = new Spans(h.context, 1);
  const results: boolean[] = [];
  for (const c of calls) {
    if (fresh) spans = new Spans(h.context, 1);
    if (c.next) h.state.epoch++;
    h.state.answer = c.answer;
    h.state.shared = c.shared;
    const s = shapes[c.shape];
    const list = s.accesses.flatMap(([v, first, kind, site]) => [
      h.arrays[c.swap ? 1 - v : v],
      v,
      c.base + first,
      s.strides[v],
      kind,
      site,
    ]);
    results.push(spans.check(m, 0, s.count, 1, 0, [], list));
  }
  const filters = h.views.map((v) =>
    Array.from({ length: WORDS }, (_, w) => filterBits(v, w, h.state.epoch)),
  );
  return {
    results,
    given: h.given,
    filters,
    touched: h.views.map((v) => Array.from(v.touched)),
    sites: h.state.sites,
  };
}

describe('range checks: loop plans', () => {
  test("a red-black sweep's rows: two plans, one per parity of the row's first index, taken from the fourth row on", () => {
    const h = harness(Float64Array, Float64Array, 80, 0);
    const spans = new Spans(h.context, 1);
    const asked: number[] = [];
    // rows of 8 elements, j from 1 + (i & 1) by 2 below 7 (3 iterations): the stencil's accesses k - 8, k + 8, k - 1,
    // k + 1, k (read), k (write), k = 8i + j
    for (let i = 1; i < 9; i++) {
      const k = 8 * i + 1 + (i & 1);
      const list = [-8, 8, -1, 1, 0, 0].flatMap((d, x) => [h.arrays[0], 0, k + d, 2, x === 5 ? 1 : 0, x]);
      assert.equal(spans.check(m, 0, 3, 1, 0, [], list), true);
      asked.push(h.state.sites);
    }
    // the first row: no plan kept (its shape not seen before); the second and third: one plan each (of two parities)
    assert.equal(asked[2] > asked[1] && asked[1] > asked[0] && asked[0] > 0, true, String(asked));
    assert.deepEqual(
      asked.slice(3),
      Array(5).fill(asked[2]),
      'no site asked for again: the plans were taken',
    );
  });

  test('a checker keeping its plans hands over the same runs as one deriving each plan', () => {
    let derived = 0;
    let kept = 0;
    fc.assert(
      fc.property(
        fc
          .array(shape, { minLength: 1, maxLength: 3 })
          .chain((shapes) =>
            fc.tuple(fc.constant(shapes), fc.array(call(shapes.length), { minLength: 1, maxLength: 12 })),
          ),
        // the second view: of the first's length or shorter, of its type or another
        fc.tuple(fc.constantFrom(...TYPES), fc.constantFrom(...TYPES), fc.constantFrom(80, 56)),
        fc.boolean(),
        ([shapes, calls], types, offset) => {
          const off = offset ? 8 : 0;
          const a = run(shapes, calls, types, off, true);
          const b = run(shapes, calls, types, off, false);
          assert.deepEqual(b.results, a.results);
          assert.deepEqual(b.given, a.given);
          assert.deepEqual(b.filters, a.filters);
          assert.deepEqual(b.touched, a.touched);
          derived += a.sites;
          kept += b.sites;
        },
      ),
      { numRuns: 400 },
    );
    // plans were taken (a plan keeps its sites: fewer asked for), though many shifts are not multiples of `per` or
    // leave the views' elements
    assert.equal(kept < derived, true, `sites asked: ${kept} kept, ${derived} derived`);
  });
});
