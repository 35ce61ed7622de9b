/**
 * The chains of nested locksets of the live collector (src/live/shadow/chains.ts) against the walk they replace: each
 * lane of a chain — views of one record's prefixes entered together, then starts of the chain's owner — ends with the
 * lockset the Figure 5 rules give one cell at a time from its start, on random cell sequences (property-based,
 * shrinking), every kind included; with live threads, a lane holding them all keeps its threads only, as a bit lane
 * does (test/live/lane-batch.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ChainBatch } from '../../src/live/shadow/chains.js';
import { DATA } from '../../src/live/shadow/lockset.js';
import { SyncKind } from '../../src/model/sync.js';
import {
  type Cell,
  cell,
  initial,
  WIDE_CELLS,
  walk,
  wideCell,
  wideInitial,
} from '../helpers/lockset-cells.js';

/** A chain: its owner, the views of one record (its keys, the owner first; lengths non-increasing), its owner's starts. */
interface Spec {
  owner: number;
  views?: { start: number; keys: number[]; lengths: number[] };
  owned: number[];
}

/**
 * A chain's lanes as the collector makes them (src/live/shadow/evaluate.ts `chainsOf`), within `n` cells, its views'
 * keys from `keys`.
 */
const spec = (n: number, keys: fc.Arbitrary<number[]>): fc.Arbitrary<Spec> =>
  fc
    .record({
      owner: fc.integer({ min: 0, max: 3 }),
      views: fc.option(
        fc.record({
          start: fc.nat(n),
          rest: keys,
          lengths: fc.array(fc.nat(5), { minLength: 1, maxLength: 5 }),
        }),
        { nil: undefined },
      ),
      owned: fc.uniqueArray(fc.nat(n), { maxLength: 6 }),
    })
    .map(({ owner, views, owned }) => {
      const from = views?.start ?? 0;
      const keys = views === undefined ? [] : [owner, ...views.rest.filter((k) => k !== owner)];
      return {
        owner,
        views:
          views === undefined
            ? undefined
            : {
                start: from,
                keys,
                lengths: views.lengths
                  .map((l) => Math.min(Math.max(l, 1), keys.length))
                  .sort((a, b) => b - a),
              },
        owned: owned.filter((p) => p >= from).sort((a, b) => a - b),
      };
    });

/** Each chain's lanes' locksets (sorted keys), through one ChainBatch over `cells`; with `live`, pruned for them. */
function chained(specs: Spec[], cells: Cell[], live?: number[]): number[][][] {
  const batch = new ChainBatch(specs.length);
  const entries: { pos: number; chain: number; lane: number }[] = [];
  specs.forEach((sp, c) => {
    if (sp.views !== undefined) entries.push({ pos: sp.views.start, chain: c, lane: -1 });
    const first = sp.views?.lengths.length ?? 0;
    sp.owned.forEach((pos, i) => {
      entries.push({ pos, chain: c, lane: first + i });
    });
  });
  entries.sort((a, b) => a.pos - b.pos || a.chain - b.chain || a.lane - b.lane);
  let next = 0;
  for (let p = 0; p <= cells.length; p++) {
    for (; next < entries.length && entries[next].pos === p; next++) {
      const { chain, lane } = entries[next];
      const sp = specs[chain];
      if (lane >= 0) batch.enter(chain, lane, [sp.owner]);
      else if (sp.views !== undefined) batch.enterPrefixes(chain, 0, sp.views.keys, sp.views.lengths);
    }
    if (p === cells.length) break;
    const c = cells[p];
    if (c.kind === SyncKind.Commit) batch.applyCommit(c.u, Int32Array.from(c.set), 0, c.set.length);
    else batch.apply(c.kind, c.u, c.y);
  }
  return specs.map((sp, c) => {
    const lanes = (sp.views?.lengths.length ?? 0) + sp.owned.length;
    const r = batch.results(c, lanes, sp.owner, live);
    // the owner first: every view of the chain's record holds it, so the owner's later starts continue the chain
    if (r.keys.length > 0) assert.equal(r.keys[0], sp.owner, 'the owner first');
    return Array.from({ length: lanes }, (_, i) =>
      [...(r.lengths[i] < 0 ? r.pruned[i] : r.keys.slice(0, r.lengths[i]))].sort((a, b) => a - b),
    );
  });
}

/** Each chain's lanes' starts and initial locksets. */
function lanesOf(sp: Spec): { start: number; keys: number[] }[] {
  const views = sp.views;
  return [
    ...(views === undefined
      ? []
      : views.lengths.map((l) => ({ start: views.start, keys: views.keys.slice(0, l) }))),
    ...sp.owned.map((start) => ({ start, keys: [sp.owner] })),
  ];
}

/** Cells (of `cellArb`) and chains over them, their views' keys from `keys`. */
const chainsOver = (
  cellArb: fc.Arbitrary<Cell>,
  keys: fc.Arbitrary<number[]>,
  length: { minLength?: number; maxLength: number } = { maxLength: 40 },
) =>
  fc
    .array(cellArb, length)
    .chain((cells) =>
      fc.tuple(fc.constant(cells), fc.array(spec(cells.length, keys), { minLength: 1, maxLength: 5 })),
    );
const cellsAndChains = chainsOver(cell, initial);

/** Every lane of every chain of `specs` against the cell-by-cell walk. */
function assertWalks(specs: Spec[], cells: Cell[]): void {
  const got = chained(specs, cells);
  specs.forEach((sp, c) => {
    lanesOf(sp).forEach((l, i) => {
      assert.deepEqual(got[c][i], walk(l.keys, cells, l.start), `chain ${c}, lane ${i}`);
    });
  });
}

describe('ChainBatch: chains of nested locksets (§5.4)', () => {
  it('gives every lane of every chain the lockset the cell-by-cell walk gives', () => {
    fc.assert(
      fc.property(cellsAndChains, ([cells, specs]) => assertWalks(specs, cells)),
      { numRuns: 500 },
    );
  });

  it('does so over hundreds of elements, its rows grown past their first room', () => {
    fc.assert(
      fc.property(chainsOver(wideCell, wideInitial, WIDE_CELLS), ([cells, specs]) =>
        assertWalks(specs, cells),
      ),
      { numRuns: 100 },
    );
  });

  it('keeps only the threads of a lane that holds every live thread', () => {
    fc.assert(
      fc.property(cellsAndChains, fc.subarray([0, 1, 2, 3], { minLength: 1 }), ([cells, specs], live) => {
        const got = chained(specs, cells, live);
        specs.forEach((sp, c) => {
          lanesOf(sp).forEach((l, i) => {
            const full = walk(l.keys, cells, l.start);
            const holdsAll = live.every((t) => full.includes(t));
            assert.deepEqual(
              got[c][i],
              holdsAll ? full.filter((k) => k < DATA) : full,
              `chain ${c}, lane ${i}`,
            );
          });
        });
      }),
      { numRuns: 500 },
    );
  });

  it('gives lane i of a chain the prefix of the elements it holds, the owner first', () => {
    // 1,000 starts of one owner, each followed by a release of its own lock: lane i ends holding the locks i … 999
    const batch = new ChainBatch(1);
    const lock = (i: number) => 2 ** 50 + i;
    for (let i = 0; i < 1000; i++) {
      batch.enter(0, i, [0]);
      batch.apply(SyncKind.Release, 0, lock(i));
    }
    const r = batch.results(0, 1000, 0, undefined);
    assert.equal(r.keys.length, 1001);
    assert.deepEqual([r.lengths[0], r.lengths[500], r.lengths[999]], [1001, 501, 2]);
    assert.deepEqual(r.keys.slice(0, 3), [0, lock(999), lock(998)]);
  });
});
