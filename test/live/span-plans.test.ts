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
  });

/** A range checker over two views of type `T` from byte `off` of their buffers, recording what it hands over. */
function harness(T: (typeof TYPES)[number], off: number) {
  const arrays = [0, 1].map(() => new T(new SharedArrayBuffer(8 * WORDS), off));
  const views: SpanView[] = arrays.map((a, i) => ({
    id: i + 1,
    base: 1024 + 4096 * i,
    off,
    bpe: T.BYTES_PER_ELEMENT,
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
  };
  return { arrays, views, state, given, context };
}

const m = (() => 'm') as unknown as SiteFunction;

/** Runs `calls` of `shapes`, with a checker made `fresh` for each call or kept; what it handed over and left. */
function run(shapes: Shape[], calls: Call[], T: (typeof TYPES)[number], off: number, fresh: boolean) {
  const h = harness(T, off);
  let spans = new Spans(h.context, 1);
  const results: boolean[] = [];
  for (const c of calls) {
    if (fresh) spans = new Spans(h.context, 1);
    if (c.next) h.state.epoch++;
    h.state.answer = c.answer;
    h.state.shared = c.shared;
    const s = shapes[c.shape];
    const list = s.accesses.flatMap(([v, first, kind, site]) => [
      h.arrays[v],
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
        fc.constantFrom(...TYPES),
        fc.boolean(),
        ([shapes, calls], T, offset) => {
          const off = offset ? 8 : 0;
          const a = run(shapes, calls, T, off, true);
          const b = run(shapes, calls, T, off, false);
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
    assert.equal(kept < 0.9 * derived, true, `sites asked: ${kept} kept, ${derived} derived`);
  });
});
