/**
 * What the rewriter cannot see at a site, patched once per thread before user code: `Atomics` (synchronization,
 * ECMA-262 §25.4 and the memory model §29), `DataView` get/set, and the built-in methods that read or write many
 * elements of shared memory at once (checked as data reads/writes of every byte they touch).
 *
 * One file per family of built-ins, as ThreadSanitizer splits its interceptors:
 * - `./atomics.ts`: `Atomics` (ECMA-262 §25.4), incl. wait/waitAsync/notify;
 * - `./dataview.ts`: `DataView.prototype` get/set;
 * - `./typed-array.ts`: `%TypedArray%.prototype`'s bulk methods, iteration and search methods;
 * - `./generic.ts`: `Array.prototype` methods, `Object.values`/`entries`/`assign` and `Reflect.construct` given a
 *   shared view;
 * - `./buffer.ts`: Node's `Buffer.from(view)` and `Buffer.prototype` methods;
 * - `./text.ts`: `TextDecoder`, `TextEncoder`, `StringDecoder`;
 * - `./format.ts`: `JSON.stringify` and `util.inspect` of a view;
 * - `./v8.ts`: `v8.deserialize` of a view (its input bytes, read natively);
 * - `./common.ts`: what they share (the replacement of a built-in, the {@link originals} table, element checks).
 * What remains unobserved, and why: docs/RUNTIME.md, "Not observed".
 */

import { patchFunctionToString } from '../../hooks/native.js';
import type { Context } from '../context.js';
import { patchAtomics } from './atomics.js';
import { patchBuffer } from './buffer.js';
import { type AnyFn, originals } from './common.js';
import { patchDataView } from './dataview.js';
import { patchInspect, patchJson } from './format.js';
import { patchArray, patchObject } from './generic.js';
import { patchText } from './text.js';
import { patchTypedArray } from './typed-array.js';
import { patchV8 } from './v8.js';

/**
 * Installs every interceptor of this folder for the thread of `ctx`. Returns the patched methods whose receivers are not
 * views (the runtime's `sitedMethods`, `../../hooks/hooks.ts`), and the replacements of view methods, `Atomics` functions and
 * those sited methods, with their originals (its `originals`).
 */
export function installPatches(ctx: Context): {
  sitedMethods: readonly AnyFn[];
  originals: ReadonlyMap<AnyFn, { original: AnyFn; argument?: number }>;
} {
  patchAtomics(ctx);
  patchDataView(ctx);
  patchTypedArray(ctx);
  patchArray(ctx);
  patchBuffer(ctx);
  const sitedMethods = patchText(ctx);
  patchObject(ctx);
  patchJson(ctx);
  patchInspect(ctx);
  patchV8(ctx);
  patchFunctionToString();
  return { sitedMethods, originals };
}
