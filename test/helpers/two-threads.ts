/** Two threads' checkers over a fresh live state (goldilocks, `--on-race=throw`) and a registered 4-page buffer. */
import { Buffers } from '../../src/live/buffers.js';
import { createState, ensureThread, StateViews } from '../../src/live/memory/state.js';
import { Shadow } from '../../src/live/shadow/goldilocks.js';

/** A checker without pending pages (`src/live/shadow/pending.ts` `PendingPages.pendingState`): the split form's steps. */
export class SplitShadow extends Shadow {
  protected override pendingPages = false;
}

/**
 * Fresh state, threads 1 and 2 (`one`, `two`), and `base`, the heap index of a 4-page (256-byte) buffer's word table;
 * with `pending` false, checkers without pending pages ({@link SplitShadow}).
 */
export function twoThreads(pending = true): { s: StateViews; base: number; one: Shadow; two: Shadow } {
  const s = new StateViews(createState({ onRace: 0, detector: 0, shadowLimit: 64 }));
  ensureThread(s, 1);
  ensureThread(s, 2);
  const buffers = new Buffers(s);
  const base = buffers.baseOf(buffers.register(new SharedArrayBuffer(4 * 64)));
  const Checker = pending ? Shadow : SplitShadow;
  return { s, base, one: new Checker(s, 1), two: new Checker(s, 2) };
}
