/**
 * The live shadow's property tests' world (test/live/pending-pages.test.ts, bulk-ranges.test.ts): a fresh shared
 * state with threads 1..`threads` and one registered buffer, each thread's checker made by `make`; the per-word form
 * they compare against; and a seeded generator.
 */
import { Buffers } from '../../src/live/buffers.js';
import { createState, ensureThread, StateViews } from '../../src/live/memory/state.js';
import { Shadow } from '../../src/live/shadow/goldilocks.js';

/** The per-word form: every word its own list (no uniform page). */
export class PerWord extends Shadow {
  protected override uniformPages = false;
}

/**
 * A fresh state with threads 1..`threads`, a registered SharedArrayBuffer of `bytes`, and each thread's checker made
 * by `make`. @returns the state, the buffer's base word address, and the checkers by thread id (index 0 unused).
 */
export function shadowWorld(threads: number, bytes: number, make: (s: StateViews, t: number) => Shadow) {
  const s = new StateViews(createState({ onRace: 0, detector: 0, shadowLimit: 64 }));
  for (let t = 1; t <= threads; t++) ensureThread(s, t);
  const buffers = new Buffers(s);
  const base = buffers.baseOf(buffers.register(new SharedArrayBuffer(bytes)));
  const checkers = [undefined, ...Array.from({ length: threads }, (_, i) => make(s, i + 1))];
  return { s, base, checkers: checkers as Shadow[] };
}

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
