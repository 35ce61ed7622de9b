/**
 * The text codecs given shared memory: `TextDecoder#decode` (reads its input), `TextEncoder#encodeInto` (writes
 * what it encodes into its destination), `StringDecoder#write` (and `end(buf)`, which calls it; reads its input).
 * Their receivers are not views: the rewriter passes their static sites (`sitedMethods`, `../../hooks/hooks.ts`).
 */
import { StringDecoder } from 'node:string_decoder';
import type { Context } from '../context.js';
import { Access } from '../shadow/goldilocks.js';
import { type AnyFn, checkAll, checkElements, originals, replaceFunction } from './common.js';

/** Patches `TextDecoder#decode`, `TextEncoder#encodeInto` and `StringDecoder#write`; returns the patched three. */
export function patchText(ctx: Context): readonly AnyFn[] {
  const decoder = TextDecoder.prototype as unknown as Record<string, AnyFn>;
  const decode = decoder.decode;
  const decodeFn = function (this: TextDecoder, input?: unknown, ...rest: unknown[]): unknown {
    if (input instanceof SharedArrayBuffer) {
      ctx.checkRange(input, 0, input.byteLength, 0, ctx.callerSite(decodeFn), 'TextDecoder#decode', decodeFn);
    } else if (ArrayBuffer.isView(input) && input.buffer instanceof SharedArrayBuffer) {
      ctx.checkRange(
        input.buffer,
        input.byteOffset,
        input.byteLength,
        0,
        ctx.callerSite(decodeFn),
        'TextDecoder#decode',
        decodeFn,
      );
    }
    return decode.call(this, input, ...rest);
  };
  replaceFunction(decoder, 'decode', decodeFn as AnyFn);
  const encoder = TextEncoder.prototype as unknown as Record<string, AnyFn>;
  const encodeInto = encoder.encodeInto;
  const encodeIntoFn = function (this: TextEncoder, src: unknown, dest: Uint8Array): unknown {
    if (ctx.shared(dest)) {
      const probe = encodeInto.call(this, src, new Uint8Array(dest.length)) as { written: number };
      checkElements(ctx, dest, 0, probe.written, Access.WRITE, 'TextEncoder#encodeInto', encodeIntoFn);
    }
    return encodeInto.call(this, src, dest);
  };
  replaceFunction(encoder, 'encodeInto', encodeIntoFn as AnyFn);
  // Node's string_decoder: `end(buf)` calls `this.write(buf)`, whose caller is then the first frame outside Node
  const stringDecoder = StringDecoder.prototype as unknown as Record<string, AnyFn>;
  const write = stringDecoder.write;
  const writeFn = function (this: StringDecoder, buf: unknown, ...rest: unknown[]): unknown {
    if (ctx.shared(buf))
      checkAll(ctx, buf as Uint8Array, 0, 'StringDecoder#write', writeFn, ctx.callerSite(writeFn, true));
    return write.call(this, buf, ...rest);
  };
  replaceFunction(stringDecoder, 'write', writeFn as AnyFn);
  // on an input (or encodeInto's destination) that is a TypedArray not over shared memory these call their
  // originals as they are
  originals.set(decodeFn as AnyFn, { original: decode, argument: 0 });
  originals.set(encodeIntoFn as AnyFn, { original: encodeInto, argument: 1 });
  originals.set(writeFn as AnyFn, { original: write, argument: 0 });
  return [decodeFn, encodeIntoFn, writeFn] as AnyFn[];
}
