/**
 * goldilocks/annotations (`../annotations/observer.ts`) in the runtime: `happensBefore(key)` appends a publish
 * cell and `happensAfter(key)` a subscribe cell of the pseudo-variable `key` (`Tag.Annotation`: the volatile
 * rules of Figure 5, as the sync library's volatiles, so every happensBefore → every later happensAfter of one key
 * is a happens-before edge); `benignRace` adds the bytes to the shared benign-race table (`./excuses.ts`).
 *
 * A key is named by 50 bits of its hash (FNV-1a twice, with two offset bases): two keys colliding would only add
 * an edge, which can hide a race but never invents one; at a million keys the odds of a collision are about 1 in
 * 2,000.
 */
import { setAnnotationObserver } from '../annotations/observer.js';
import { SyncKind } from '../model/sync.js';
import type { Context } from './context.js';
import { addBenign } from './excuses.js';
import { appendCell, TAG_SHIFT, Tag } from './memory/state.js';
import { packA } from './shadow/goldilocks.js';

/** FNV-1a of `text` from offset basis `h`, as an unsigned 32-bit integer. */
function fnv(text: string, h: number): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Appends cell `kind` of the pseudo-variable `key` for the thread of `ctx`. */
function annotationCell(ctx: Context, kind: number, key: string): void {
  const a = packA(Tag.Annotation, fnv(key, 0x5bd1e995) & ((1 << TAG_SHIFT) - 1));
  const b = fnv(key, 0x811c9dc5) | 0;
  ctx.listLocked(() => appendCell(ctx.s, kind, ctx.t, a, b));
}

/** Installs the annotations' observer for the thread of `ctx`. */
export function observeAnnotations(ctx: Context): void {
  setAnnotationObserver({
    happensBefore(key) {
      annotationCell(ctx, SyncKind.Publish, key);
    },
    happensAfter(key) {
      annotationCell(ctx, SyncKind.Subscribe, key);
    },
    benignRace(buffer, byteOffset, byteLength, reason) {
      addBenign(ctx.s, ctx.idOf(buffer), byteOffset, byteOffset + byteLength, reason);
    },
  });
}
