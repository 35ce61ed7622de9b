/**
 * Random synchronization cells and locksets for the collector's passes (test/live/lane-batch.test.ts,
 * test/live/chains.test.ts), and the walk they are compared with: the Figure 5 rules applied one cell at a time
 * (`applyRule`, `applyCommit` on a LiveLockset).
 */
import fc from 'fast-check';
import { applyCommit, applyRule } from '../../src/detectors/goldilocks/rules.js';
import { DATA, LiveLockset } from '../../src/live/shadow/lockset.js';
import { SyncKind } from '../../src/model/sync.js';

/** Threads 0–3; objects (locks, volatiles, atomic locations) are keys 2^50 + 0–3, as objectKey makes them. */
export const OBJ = 2 ** 50;
export const KINDS = Object.values(SyncKind);

export interface Cell {
  kind: number;
  u: number;
  y: number;
  /** R ∪ W of a commit (data variables). */
  set: number[];
}

export const cell: fc.Arbitrary<Cell> = fc
  .record({
    kind: fc.constantFrom(...KINDS),
    u: fc.integer({ min: 0, max: 3 }),
    t: fc.integer({ min: 0, max: 3 }),
    o: fc.integer({ min: 0, max: 3 }),
    set: fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }),
  })
  .map(({ kind, u, t, o, set }) => ({
    kind,
    u,
    // fork and join name a thread other than u; every other kind an object
    y: kind === SyncKind.Fork || kind === SyncKind.Join ? (u + 1 + (t % 3)) % 4 : OBJ + o,
    set,
  }));

/** An initial lockset: thread, object and data keys. */
export const initial = fc.uniqueArray(
  fc.oneof(
    fc.integer({ min: 0, max: 3 }),
    fc.integer({ min: 0, max: 3 }).map((o) => OBJ + o),
    fc.integer({ min: 0, max: 5 }).map((x) => DATA + x),
  ),
  { maxLength: 4 },
);

export function applyCell(ls: LiveLockset, c: Cell): void {
  if (c.kind === SyncKind.Commit) applyCommit(ls, c.u, Int32Array.from(c.set), 0, c.set.length);
  else applyRule(ls, c.kind, c.u, c.y, null);
}

/** The lockset `keys` walked cell by cell over cells[from …]. */
export function walk(keys: number[], cells: Cell[], from: number): number[] {
  const ls = new LiveLockset();
  ls.load(keys, -1);
  for (let p = from; p < cells.length; p++) applyCell(ls, cells[p]);
  return [...ls.keys].sort((a, b) => a - b);
}
