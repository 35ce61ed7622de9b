/**
 * `SharedArrayBuffer.prototype.slice` (ECMA-262 §25.2.5.6): it reads the bytes [first, final) of the buffer and
 * copies them into a new SharedArrayBuffer. The read is checked like any bulk read; the new buffer is noted as made
 * at the call (its allocation site in race reports, issue 25 §1; `../buffers.ts`), as `new SharedArrayBuffer(...)`
 * is by the rewriter. Its receiver is no view: the caller's frame names the site (one stack frame per call).
 */
import type { Buffers } from '../buffers.js';
import type { Context } from '../context.js';
import { type AnyFn, relative, replaceFunction } from './common.js';

/** Patches `SharedArrayBuffer.prototype.slice` for the thread of `ctx` (see the file header). */
export function patchSharedSlice(ctx: Context, buffers: Buffers): void {
  const proto = SharedArrayBuffer.prototype as unknown as Record<string, AnyFn>;
  const slice = proto.slice;
  const sliceFn = function (this: unknown, start?: unknown, end?: unknown): unknown {
    if (!(this instanceof SharedArrayBuffer)) return slice.call(this, start, end); // the original's TypeError
    const len = this.byteLength;
    // converted once, here: the original gets the integers (a user valueOf runs once, as without the runtime)
    const first = relative(start, len, 0);
    const final = Math.max(first, relative(end, len, len));
    const site = ctx.callerSite(sliceFn);
    ctx.checkRange(this, first, final - first, 0, site, 'SharedArrayBuffer#slice', sliceFn);
    const copy = slice.call(this, first, final);
    buffers.allocated(copy, site);
    return copy;
  };
  replaceFunction(proto, 'slice', sliceFn);
}
