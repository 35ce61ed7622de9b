/**
 * The bit-parallel partially-eager evaluation of the live list (src/live/shadow/batch.ts) against the walk it
 * replaces: each lane's lockset equals the Figure 5 rules applied one cell at a time (`applyRule`, `applyCommit` on
 * a LiveLockset) from the lane's start, on random cell sequences (property-based, shrinking), every kind included.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LaneBatch } from '../../src/live/shadow/batch.js';
import { DATA } from '../../src/live/shadow/lockset.js';
import { SyncKind } from '../../src/model/sync.js';
import {
  type Cell,
  cell,
  initial,
  KINDS,
  OBJ,
  WIDE_CELLS,
  walk,
  wideCell,
  wideInitial,
} from '../helpers/lockset-cells.js';

/**
 * Every lane through a LaneBatch: lanes sorted by start, each entered before the cell at its start; with `live`,
 * pruned for those threads before the results.
 */
function batched(lanes: { start: number; keys: number[] }[], cells: Cell[], live?: number[]): number[][] {
  const order = lanes.map((_, i) => i).sort((a, b) => lanes[a].start - lanes[b].start);
  const batch = new LaneBatch(lanes.length);
  let next = 0;
  for (let p = 0; p <= cells.length; p++) {
    for (; next < order.length && lanes[order[next]].start === p; next++)
      batch.enter(next, lanes[order[next]].keys);
    if (p === cells.length) break;
    const c = cells[p];
    if (c.kind === SyncKind.Commit) batch.applyCommit(c.u, Int32Array.from(c.set), 0, c.set.length);
    else batch.apply(c.kind, c.u, c.y);
  }
  if (live !== undefined) batch.prune(live);
  const results = batch.results();
  const out: number[][] = new Array(lanes.length);
  order.forEach((lane, i) => {
    out[lane] = [...results[i]].sort((a, b) => a - b);
  });
  return out;
}

describe('LaneBatch: bit-parallel partially-eager evaluation (§5.4)', () => {
  /** Cells of `cellArb` and lanes whose locksets are of `keys`: every lane against the cell-by-cell walk. */
  const walks = (
    cellArb: fc.Arbitrary<Cell>,
    keys: fc.Arbitrary<number[]>,
    length: { minLength?: number; maxLength: number } = { maxLength: 40 },
  ) =>
    fc.property(
      fc.array(cellArb, length),
      fc.array(fc.record({ start: fc.nat(40), keys }), { minLength: 1, maxLength: 70 }),
      (cells, raw) => {
        const lanes = raw.map((l) => ({ ...l, start: Math.min(l.start, cells.length) }));
        const got = batched(lanes, cells);
        lanes.forEach((l, i) => {
          assert.deepEqual(got[i], walk(l.keys, cells, l.start), `lane ${i}`);
        });
      },
    );

  it('gives every lane the lockset the cell-by-cell walk gives', () => {
    fc.assert(walks(cell, initial), { numRuns: 500 });
  });

  it('does so over hundreds of elements, its rows grown past their first room', () => {
    fc.assert(walks(wideCell, wideInitial, WIDE_CELLS), { numRuns: 100 });
  });

  it('prunes a lane that holds every live thread to its threads, which then decide every later check the same', () => {
    // later cells: of live threads, and of threads 4 and 5 once a started thread forked them
    const later = fc.array(
      fc.record({
        kind: fc.constantFrom(...KINDS),
        u: fc.integer({ min: 0, max: 5 }),
        child: fc.integer({ min: 4, max: 5 }),
        o: fc.integer({ min: 0, max: 3 }),
        set: fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }),
      }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(
        fc.array(cell, { maxLength: 40 }),
        fc.array(fc.record({ start: fc.nat(40), keys: initial }), { minLength: 1, maxLength: 40 }),
        fc.subarray([0, 1, 2, 3], { minLength: 1 }),
        later,
        (cells, raw, live, next) => {
          const lanes = raw.map((l) => ({ ...l, start: Math.min(l.start, cells.length) }));
          const full = batched(lanes, cells);
          const pruned = batched(lanes, cells, live);
          const started = new Set(live);
          const after: Cell[] = [];
          for (const c of next) {
            if (!started.has(c.u)) continue; // a dead thread, or one not forked yet
            if (c.kind === SyncKind.Fork) {
              if (started.has(c.child)) continue;
              started.add(c.child);
              after.push({ kind: c.kind, u: c.u, y: c.child, set: [] });
            } else if (c.kind === SyncKind.Join)
              after.push({ kind: c.kind, u: c.u, y: (c.u + 1) % 6, set: [] });
            else after.push({ kind: c.kind, u: c.u, y: OBJ + c.o, set: c.set });
          }
          lanes.forEach((_, i) => {
            const holdsAll = live.every((t) => full[i].includes(t));
            assert.deepEqual(pruned[i], holdsAll ? full[i].filter((k) => k < DATA) : full[i], `lane ${i}`);
            const a = walk(full[i], after, 0);
            const b = walk(pruned[i], after, 0);
            for (const t of started) assert.equal(b.includes(t), a.includes(t), `lane ${i}, thread ${t}`);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('shares one array between consecutive lanes that end equal, and not between lanes that differ', () => {
    const batch = new LaneBatch(3);
    batch.enter(0, [0]);
    batch.enter(1, [0]);
    batch.enter(2, [1]);
    const [a, b, c] = batch.results();
    assert.equal(a, b);
    assert.notEqual(b, c);
    assert.deepEqual([...c], [1]);
  });
});
