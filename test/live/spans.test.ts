/**
 * The runs of words a range check hands to the checker (`src/live/spans.ts`), with a checker that records them: an
 * element a loop reads and writes is checked as its write only; the same-epoch filter is read inside the hull of
 * the words it covers in the current epoch (`touched`), and the words outside are checked.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SiteFunction } from '../../src/hooks/contract.js';
import { filterAdd, filterBits, newFilter } from '../../src/live/filter.js';
import { STATS } from '../../src/live/memory/state.js';
import type { Shadow } from '../../src/live/shadow/goldilocks.js';
import { Access, RUN_FIELDS } from '../../src/live/shadow/goldilocks.js';
import { lockOf } from '../../src/live/shadow/table.js';
import { iterations, loopIterations, Spans, type SpanView, TOUCHED, touch } from '../../src/live/spans.js';

const WORDS = 64;
const BASE = 1024;

/** The filter entries of the words [from, to) of `v` in epoch 1. */
const filterWords = (v: SpanView, from: number, to: number): number[] =>
  Array.from({ length: to - from }, (_, i) => filterBits(v, from + i, 1));

type Typed = typeof Float64Array | typeof Int32Array | typeof Int16Array | typeof Uint8Array;

/**
 * A range checker over one view of type `T` (a Float64Array by default) over WORDS words from byte `off` of its
 * buffer, whose checker records the runs it is given (the byte mask last, when not the whole word).
 */
function setup(answer = true, T: Typed = Float64Array, off = 0, minCount = 1) {
  const a = new T(new SharedArrayBuffer(8 * WORDS), off);
  const view: SpanView = {
    id: 1,
    base: BASE,
    off,
    bpe: T.BYTES_PER_ELEMENT,
    len: a.length,
    ...newFilter(WORDS),
    touched: new Int32Array(TOUCHED),
  };
  let epoch = 1;
  const given: { runs: number[][]; pages: number[] } = { runs: [], pages: [] };
  const shadow = {
    rangeChecks: true,
    counts: new Float64Array(STATS.length),
    accessRuns(runs: readonly number[], pages: Int32Array, nPages: number): boolean {
      given.pages = Array.from(pages.subarray(0, nPages));
      for (let r = 0; r < runs.length; r += RUN_FIELDS)
        given.runs.push([
          runs[r] - BASE,
          runs[r + 1],
          runs[r + 2],
          runs[r + 3],
          ...(runs[r + 4] === Access.MASK && runs[r + 5] === 1 ? [] : [runs[r + 4]]),
          ...(runs[r + 5] === 1 ? [] : [runs[r + 5]]),
        ]);
      return answer;
    },
  } as unknown as Shadow;
  const spans = new Spans(
    {
      shadow,
      viewAt: (o) => (o === a ? view : undefined),
      epoch: () => epoch,
      siteOf: (_m, i) => 100 + i,
      counted: () => {},
      alone: () => false,
    },
    minCount,
  );
  const m = (() => 'm') as unknown as SiteFunction;
  return {
    a,
    view,
    given,
    spans,
    m,
    next: () => epoch++,
    /**
     * The range check of `for (j = lo; j < hi; j++)` with the accesses [first, kind (0 read, 1 write), site], `first`
     * the element the access reaches at j = lo, each `stride` elements further at each iteration.
     */
    check: (lo: number, hi: number, accesses: [number, number, number][], stride = 1) =>
      spans.check(
        m,
        lo,
        hi,
        1,
        0,
        [],
        accesses.flatMap(([first, kind, site]) => [a, 0, first, stride, kind, site]),
      ),
  };
}

describe('range checks: the runs of words checked', () => {
  test('a shift a[j] = a[j+1] checks the elements it writes as writes and only the last as a read', () => {
    const s = setup();
    assert.equal(
      s.check(0, 10, [
        [1, 0, 7],
        [0, 1, 8],
      ]),
      true,
    );
    // elements 0-9 written (site 8), element 10 only read (site 7)
    assert.deepEqual(s.given.runs, [
      [10, 1, 0, 107],
      [0, 10, Access.WRITE, 108],
    ]);
  });

  test('a stencil b[j] = a[j-1] + a[j+1] over one view, written in place, reads only its two border elements', () => {
    const s = setup();
    s.check(1, 9, [
      [0, 0, 1],
      [2, 0, 2],
      [1, 1, 3],
    ]);
    // the reads by the order they first reach an element: a[j+1] (elements 2-9), then a[j-1] (0-1)
    assert.deepEqual(s.given.runs, [
      [9, 1, 0, 102],
      [0, 1, 0, 101],
      [1, 8, Access.WRITE, 103],
    ]);
  });

  test('a read-only loop checks every element it reads', () => {
    const s = setup();
    s.check(4, 20, [[4, 0, 1]]);
    assert.deepEqual(s.given.runs, [[4, 16, 0, 101]]);
  });

  test('the words a range check recorded are skipped by the next one in the epoch, not in the next epoch', () => {
    const s = setup();
    s.check(8, 16, [[8, 0, 1]]);
    assert.deepEqual([...s.view.touched.subarray(0, 3)], [1, 8, 16]);
    s.given.runs = [];
    s.check(0, 24, [[0, 0, 1]]);
    assert.deepEqual(s.given.runs, [
      [0, 8, 0, 101],
      [16, 8, 0, 101],
    ]);
    assert.deepEqual([...s.view.touched.subarray(0, 3)], [1, 0, 24]);
    assert.deepEqual(filterWords(s.view, 0, 25), [...Array(24).fill(Access.MASK), 0]);
    s.next();
    s.given.runs = [];
    s.check(0, 24, [[0, 0, 1]]);
    assert.deepEqual(s.given.runs, [[0, 24, 0, 101]]);
  });

  test('reads inside the longest run of reads recorded in the epoch are not checked again, the rest are', () => {
    const s = setup();
    s.check(8, 16, [[8, 0, 1]]);
    assert.deepEqual([...s.view.touched.subarray(3, 6)], [1, 8, 16]);
    s.given.runs = [];
    s.check(10, 14, [[10, 0, 1]]);
    assert.deepEqual(s.given.runs, []);
    s.check(4, 12, [[4, 0, 1]]);
    assert.deepEqual(s.given.runs, [[4, 4, 0, 101]]);
    assert.deepEqual([...s.view.touched.subarray(3, 6)], [1, 8, 16]); // a shorter run: kept
    s.given.runs = [];
    s.check(4, 16, [[4, 0, 1]]);
    assert.deepEqual(s.given.runs, []);
    s.view.filter[10] = 0; // not what a run leaves: shows that the words of the longest run of reads are not read
    s.view.filter[5] = 0; // nor this: the other words of the hull are read
    s.check(4, 16, [[4, 0, 1]]);
    assert.deepEqual(s.given.runs, [[5, 1, 0, 101]]);
    s.given.runs = [];
    s.check(16, 24, [[16, 0, 1]]);
    assert.deepEqual([...s.view.touched.subarray(3, 6)], [1, 16, 24]); // as long: the latest
    s.next();
    s.given.runs = [];
    s.check(10, 14, [[10, 0, 1]]);
    assert.deepEqual(s.given.runs, [[10, 4, 0, 101]]);
  });

  test('a read recorded by a range check does not cover a write; a write covers a later read', () => {
    const s = setup();
    s.check(0, 8, [[0, 0, 1]]);
    s.given.runs = [];
    s.check(0, 8, [[0, 1, 2]]);
    assert.deepEqual(s.given.runs, [[0, 8, Access.WRITE, 102]]);
    assert.deepEqual(filterWords(s.view, 0, 8), Array(8).fill(0xffff));
    s.given.runs = [];
    s.check(0, 8, [[0, 0, 3]]);
    assert.deepEqual(s.given.runs, []);
  });

  test('words covered by per-access checks (the filter and its hull set as the fast path does) are skipped', () => {
    const s = setup();
    for (const w of [3, 5]) {
      filterAdd(s.view, w, 1, Access.MASK);
      touch(s.view.touched, 1, w, w + 1);
    }
    s.check(0, 8, [[0, 0, 1]]);
    assert.deepEqual(s.given.runs, [
      [0, 3, 0, 101],
      [4, 1, 0, 101],
      [6, 2, 0, 101],
    ]);
    assert.deepEqual(filterWords(s.view, 0, 8), Array(8).fill(Access.MASK));
  });

  test('reads the per-access checks covered whole are not scanned again in the epoch, in the next one they are', () => {
    const s = setup();
    for (let w = 2; w < 10; w++) {
      filterAdd(s.view, w, 1, Access.MASK << 8); // written by the fast path: covers reads
      touch(s.view.touched, 1, w, w + 1);
    }
    s.check(2, 10, [
      [2, 0, 1],
      [1, 0, 2],
    ]);
    assert.deepEqual(s.given.runs, [[1, 1, 0, 102]]); // a[j-1] at j = 2 only
    assert.deepEqual([...s.view.touched.subarray(3, 6)], [1, 2, 10]); // the words the scan found covered: longer
    s.given.runs = [];
    s.view.filter[6] = 0; // not what a check leaves: shows that those words are not read again
    s.check(5, 9, [[5, 0, 1]]);
    assert.deepEqual(s.given.runs, []);
    s.next();
    s.check(5, 9, [[5, 0, 1]]);
    assert.deepEqual(s.given.runs, [[5, 4, 0, 101]]);
  });

  test('a conflict leaves the filter and its hull as they were', () => {
    const s = setup(false);
    assert.equal(s.check(0, 8, [[0, 1, 1]]), false);
    assert.deepEqual(filterWords(s.view, 0, 8), [0, 0, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual([...s.view.touched.subarray(0, 3)], [0, 0, 0]);
  });
});

describe('range checks: elements smaller than a word', () => {
  test('bytes [3, 21) of a Uint8Array: a first and a last word with some bytes, the whole words between', () => {
    const s = setup(true, Uint8Array);
    assert.equal(s.check(3, 21, [[3, 0, 1]]), true);
    assert.deepEqual(s.given.runs, [
      [0, 1, 0, 101, 0xf8],
      [1, 1, 0, 101],
      [2, 1, 0, 101, 0x1f],
    ]);
    assert.deepEqual(filterWords(s.view, 0, 4), [0xf8, Access.MASK, 0x1f, 0]);
  });

  test('Int16 elements within one word, and a view from byte 4 of its buffer', () => {
    const s = setup(true, Int16Array);
    s.check(1, 3, [[1, 1, 1]]);
    assert.deepEqual(s.given.runs, [[0, 1, Access.WRITE, 101, 0x3c]]);
    const t = setup(true, Int32Array, 4);
    t.check(0, 5, [[0, 0, 1]]);
    assert.deepEqual(t.given.runs, [
      [0, 1, 0, 101, 0xf0],
      [1, 2, 0, 101],
    ]);
  });

  test("crypt's block loop: the 8 bytes of a word read at 8 sites (stride 8), one run per byte with its site", () => {
    const s = setup(true, Uint8Array);
    const reads = Array.from({ length: 8 }, (_, b): [number, number, number] => [b, 0, b + 1]);
    assert.equal(
      s.check(
        2,
        6,
        reads.map(([f, k, site]) => [f + 16, k, site]),
        8,
      ),
      true,
    );
    assert.deepEqual(
      s.given.runs,
      reads.map(([b]) => [2, 4, 0, 101 + b, 1 << b]),
    );
    assert.deepEqual(filterWords(s.view, 1, 7), [0, ...Array(4).fill(Access.MASK), 0]);
    s.given.runs = [];
    // a later loop of the epoch writing byte 5 of words 4-7 is checked: the reads cover no write
    s.check(0, 4, [[37, 1, 9]], 8);
    assert.deepEqual(s.given.runs, [[4, 4, Access.WRITE, 109, 0x20]]);
  });

  test('a lane read and written (text[8j+1] += 1): its write only; another lane read only', () => {
    const s = setup(true, Uint8Array, 3);
    s.check(
      0,
      3,
      [
        [1, 0, 1],
        [1, 1, 2],
        [2, 0, 3],
      ],
      8,
    );
    // element 1 is byte 4 of each word (the view starts at byte 3), element 2 byte 5
    assert.deepEqual(s.given.runs, [
      [0, 3, Access.WRITE, 102, 0x10],
      [0, 3, 0, 103, 0x20],
    ]);
  });

  test('stride 0: one element per access in the body order, each element with the site that reaches it first', () => {
    const s = setup(true, Int32Array);
    s.check(
      0,
      100,
      [
        [3, 0, 1],
        [4, 0, 2],
        [3, 0, 3],
        [200, 0, 4],
      ],
      0,
    );
    assert.deepEqual(s.given.runs, [
      [1, 1, 0, 101, 0xf0],
      [2, 1, 0, 102, 0x0f],
    ]);
  });

  test('a stride that neither is ±1 nor spans whole words goes to the per-access checks', () => {
    for (const [T, stride] of [
      [Uint8Array, 2],
      [Uint8Array, 12],
      [Int32Array, 3],
      [Int16Array, 5],
    ] as const) {
      const s = setup(true, T);
      assert.equal(s.check(0, 4, [[0, 0, 1]], stride), false);
      assert.deepEqual(s.given.runs, []);
    }
  });

  test('a red-black sweep over a Float64Array (j += 2): per lane, every second word, reads then writes', () => {
    const s = setup();
    // j = 0, 2, …, 8: reads a[j], a[j + 1], a[j + 2], a[j - 1] (j = 0: element -1, out of bounds), writes a[j]
    assert.equal(
      s.check(
        0,
        5,
        [
          [0, 0, 1],
          [1, 0, 2],
          [2, 0, 3],
          [-1, 0, 4],
          [0, 1, 5],
        ],
        2,
      ),
      true,
    );
    assert.deepEqual(s.given.runs, [
      [10, 1, 0, 103, Access.MASK, 2], // even words: a[j + 2]'s last, the others written
      [0, 5, Access.WRITE, 105, Access.MASK, 2],
      [1, 5, 0, 102, Access.MASK, 2], // odd words: a[j + 1] first, then a[j - 1] reaches none it did not
    ]);
    assert.deepEqual(filterWords(s.view, 0, 12), [
      ...Array(5)
        .fill([Access.MASK | (Access.MASK << 8), Access.MASK])
        .flat(),
      Access.MASK,
      0,
    ]);
    // a later loop of the epoch over the odd words 1–13 checks only those the filter does not cover
    s.given.runs = [];
    s.check(0, 7, [[1, 0, 6]], 2);
    assert.deepEqual(s.given.runs, [[11, 2, 0, 106, Access.MASK, 2]]);
  });

  test('a lane of reads recorded in the epoch is not scanned again, its other words are; nor in the next epoch', () => {
    const s = setup();
    assert.equal(s.check(0, 5, [[1, 0, 1]], 2), true); // odd words 1–9
    assert.deepEqual(s.given.runs, [[1, 5, 0, 101, Access.MASK, 2]]);
    s.view.filter[3] = 0; // not what a run leaves: shows that the words of a lane of reads kept are not read
    s.view.filter[5] = 0;
    s.given.runs = [];
    assert.equal(s.check(0, 7, [[1, 0, 2]], 2), true); // odd words 1–13
    assert.deepEqual(s.given.runs, [[11, 2, 0, 102, Access.MASK, 2]]);
    s.given.runs = [];
    assert.equal(s.check(0, 3, [[0, 0, 3]], 2), true); // even words 0–4: another lane
    assert.deepEqual(s.given.runs, [[0, 3, 0, 103, Access.MASK, 2]]);
    s.next();
    s.given.runs = [];
    assert.equal(s.check(0, 5, [[1, 0, 4]], 2), true);
    assert.deepEqual(s.given.runs, [[1, 5, 0, 104, Access.MASK, 2]]);
  });

  test('a lane of writes skips the blocks of the hull without a write bit, and checks the words written', () => {
    const s = setup();
    assert.equal(s.check(0, 16, [[0, 0, 1]]), true); // reads of words 0–15: block 0 of this epoch, no write bit
    s.given.runs = [];
    assert.equal(s.check(0, 4, [[0, 1, 2]], 2), true); // writes of words 0, 2, 4, 6
    assert.deepEqual(s.given.runs, [[0, 4, Access.WRITE, 102, Access.MASK, 2]]);
    s.given.runs = [];
    assert.equal(s.check(0, 12, [[0, 1, 3]], 2), true); // writes of words 0, 2, …, 22
    assert.deepEqual(s.given.runs, [[8, 8, Access.WRITE, 103, Access.MASK, 2]]);
    s.view.filter[12] = 0; // the read bits are not what a write's check reads
    s.given.runs = [];
    assert.equal(s.check(0, 12, [[0, 1, 4]], 2), true);
    assert.deepEqual(s.given.runs, []);
  });

  test('lanes of whole words: out-of-bounds elements, a stride of two words of Int32 halves, going down', () => {
    const s = setup();
    s.check(0, 40, [[1, 0, 1]], 2); // elements 1, 3, …, 79: the 32 in bounds
    assert.deepEqual(s.given.runs, [[1, 32, 0, 101, Access.MASK, 2]]);
    const t = setup(true, Int32Array);
    t.check(0, 3, [[1, 0, 1]], 4); // elements 1, 5, 9: the high half of words 0, 2, 4
    assert.deepEqual(t.given.runs, [[0, 3, 0, 101, 0xf0, 2]]);
    const u = setup();
    u.check(0, 5, [[10, 1, 1]], -3); // elements 10, 7, 4, 1 and -2 (out of bounds)
    assert.deepEqual(u.given.runs, [[1, 4, Access.WRITE, 101, Access.MASK, 3]]);
  });

  test('a loop of fewer iterations than the minimum is left to its per-access checks (moldyn: 2, over the workers)', () => {
    const s = setup(true, Float64Array, 0, 8);
    assert.equal(s.check(0, 7, [[0, 1, 1]]), false);
    assert.deepEqual(s.given.runs, []);
    assert.equal(s.check(0, 0, [[0, 1, 1]]), true); // no iteration: nothing to check
    assert.equal(s.check(0, 8, [[0, 1, 1]]), true);
    assert.deepEqual(s.given.runs, [[0, 8, Access.WRITE, 101]]);
  });

  test('a column of a matrix (16 words apart): one lane, every page of its words locked once, ascending', () => {
    const s = setup();
    // j = 0…3: reads a[16 j + 1] (a column), writes a[16 j + 2] and a[4 j + 48] (a row: words 48, 52, 56, 60)
    s.check(0, 4, [[1, 0, 1]], 16);
    assert.deepEqual(s.given.runs, [[1, 4, 0, 101, Access.MASK, 16]]);
    assert.deepEqual(
      s.given.pages,
      [1, 17, 33, 49].map((w) => lockOf(BASE + w)),
    );
    const u = setup();
    u.spans.check(u.m, 0, 4, 1, 0, [], [u.a, 0, 2, 16, 1, 2, u.a, 0, 48, 4, 1, 3]);
    assert.deepEqual(u.given.runs, []); // one view variable, two strides: refused
    const v = setup();
    const b = new Float64Array(new SharedArrayBuffer(8 * WORDS));
    assert.equal(v.spans.check(v.m, 0, 4, 1, 0, [], [v.a, 0, 2, 16, 1, 2, b, 1, 0, 1, 0, 3]), true); // b not shared here
    assert.deepEqual(v.given.runs, [[2, 4, Access.WRITE, 102, Access.MASK, 16]]);
    // the pages of a dense run and of a sparse one together: sorted, each once
    const w = setup();
    w.spans.check(w.m, 0, 4, 1, 0, [], [w.a, 0, 0, 16, 0, 1, w.a, 1, 60, 1, 1, 2]);
    assert.deepEqual(
      w.given.pages,
      [...new Set([0, 16, 32, 48, 60, 61, 62, 63].map((x) => lockOf(BASE + x)))].sort((x, y) => x - y),
    );
  });

  test("bytes read by one loop leave the word's other bytes to the next loop of the epoch", () => {
    const s = setup(true, Uint8Array);
    s.check(0, 4, [[0, 0, 1]]);
    s.given.runs = [];
    s.check(0, 8, [[0, 0, 1]]);
    assert.deepEqual(s.given.runs, [[0, 1, 0, 101]]);
    s.given.runs = [];
    s.check(0, 8, [[0, 0, 1]]);
    assert.deepEqual(s.given.runs, []);
  });
});

describe('the iterations of a loop from its bounds (`inclusive` 0: <, 1: <=, 2: !==)', () => {
  /** The iterations of `for (j = lo; j OP hi; j += step)` run (at most `cap`; -1 past it: it does not end). */
  function simulated(lo: number, hi: number, step: number, inclusive: number, cap = 1000): number {
    let n = 0;
    for (let j = lo; inclusive === 2 ? j !== hi : inclusive === 1 ? j <= hi : j < hi; j += step)
      if (++n > cap) return -1;
    return n;
  }
  test('equal to the loop run, -1 for a !== loop that never reaches its bound', () => {
    for (const inclusive of [0, 1, 2])
      for (let lo = -3; lo <= 5; lo++)
        for (const hi of [-4, -3, -1, 0, 1, 2, 2.5, 3, 4, 7, 8, Number.NaN, Number.POSITIVE_INFINITY])
          for (const step of [1, 2, 3])
            assert.equal(
              // an endless < or <= loop (hi Infinity): Infinity iterations, which the range check refuses (MAX_COUNT)
              ((n) => (n === Number.POSITIVE_INFINITY ? -1 : n))(iterations(lo, hi, step, inclusive)),
              simulated(lo, hi, step, inclusive),
              `lo ${lo}, hi ${hi}, step ${step}, inclusive ${inclusive}`,
            );
  });
  test('loopIterations refuses (-1) a !== loop that never reaches its bound, as a bound that is not a number', () => {
    assert.equal(loopIterations(0, 6, 2, 2, []), 3);
    assert.equal(loopIterations(0, 7, 2, 2, []), -1);
    assert.equal(loopIterations(0, '6' as unknown as number, 2, 2, []), -1);
  });
});
