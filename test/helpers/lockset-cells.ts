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

/**
 * Cells over threads 0–3, objects OBJ + 0 … `objects` − 1 and commits of `setMin` … `setMax` data variables
 * 0 … `data` − 1.
 */
export const cellOver = (objects: number, data: number, setMin: number, setMax: number): fc.Arbitrary<Cell> =>
  fc
    .record({
      kind: fc.constantFrom(...KINDS),
      u: fc.integer({ min: 0, max: 3 }),
      t: fc.integer({ min: 0, max: 3 }),
      o: fc.integer({ min: 0, max: objects - 1 }),
      set: fc.uniqueArray(fc.integer({ min: 0, max: data - 1 }), { minLength: setMin, maxLength: setMax }),
    })
    .map(({ kind, u, t, o, set }) => ({
      kind,
      u,
      // fork and join name a thread other than u; every other kind an object
      y: kind === SyncKind.Fork || kind === SyncKind.Join ? (u + 1 + (t % 3)) % 4 : OBJ + o,
      set,
    }));

/** An initial lockset of `min` … `max` keys: threads 0–3, objects and data variables as {@link cellOver} has them. */
export const initialOver = (
  objects: number,
  data: number,
  min: number,
  max: number,
): fc.Arbitrary<number[]> =>
  fc.uniqueArray(
    fc.oneof(
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: objects - 1 }).map((o) => OBJ + o),
      fc.integer({ min: 0, max: data - 1 }).map((x) => DATA + x),
    ),
    { minLength: min, maxLength: max },
  );

/** Cells over few elements (4 objects, 6 data variables), so that the rules meet often. */
export const cell = cellOver(4, 6, 0, 3);
export const initial = initialOver(4, 6, 0, 4);

/**
 * Cells and locksets over hundreds of elements (40 objects, 300 data variables, commits of 30–60): a pass then holds
 * more rows than a batch makes room for at first (`src/live/shadow/rows.ts`), and grows; with {@link WIDE_CELLS}.
 */
export const wideCell = cellOver(40, 300, 30, 60);
export const wideInitial = initialOver(40, 300, 10, 30);
/** The length of the wide tests' cell sequences (fast-check's own sizes stay near 10). */
export const WIDE_CELLS = { minLength: 30, maxLength: 60 };

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
