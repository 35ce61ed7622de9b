/**
 * Node's `v8.deserialize(buffer)` (lib/v8.js: a `DefaultDeserializer` over `buffer`, its header and value read by
 * V8's ValueDeserializer in native code): a read of the bytes of `buffer` when it is a view over shared memory
 * (`Buffer.from(sab, offset, length)`, a TypedArray or a DataView), checked before it runs like the other bulk reads
 * (`./buffer.ts` toString, `./text.ts` TextDecoder#decode): every byte of the view, the whole input the caller hands
 * the deserializer (it reads the serialized value from the start; bytes after the value's end are counted as read).
 * The export is replaced on the `v8` module object, and the named export with it (`module.syncBuiltinESMExports`), so
 * `require('v8').deserialize`, `import v8 from 'node:v8'` and `import { deserialize } from 'node:v8'` all see it.
 * Not observed: `new v8.Deserializer(buffer)` used directly (docs/RUNTIME.md, "Not observed").
 */
import { syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';
import type { Context } from '../context.js';
import { type AnyFn, checkAll, replaceFunction } from './common.js';

const dataViewGetter = (name: string) => Object.getOwnPropertyDescriptor(DataView.prototype, name)!.get!;
const viewBuffer = dataViewGetter('buffer');
const viewOffset = dataViewGetter('byteOffset');
const viewLength = dataViewGetter('byteLength');

/** Replaces `v8.deserialize` by a function that checks its input's shared bytes as read, then deserializes. */
export function patchV8(ctx: Context): void {
  const original = v8.deserialize as AnyFn;
  const what = 'v8.deserialize';
  const deserialize = function (this: unknown, ...args: unknown[]): unknown {
    const input = args[0];
    if (ctx.shared(input)) checkAll(ctx, input as ArrayBufferView, 0, what, deserialize);
    else if (input instanceof DataView) {
      const buffer = viewBuffer.call(input);
      if (buffer instanceof SharedArrayBuffer)
        ctx.checkRange(
          buffer,
          viewOffset.call(input) as number,
          viewLength.call(input) as number,
          0,
          ctx.callerSite(deserialize),
          what,
          deserialize,
        );
    }
    return Reflect.apply(original, this, args);
  };
  replaceFunction(v8, 'deserialize', deserialize as AnyFn);
  syncBuiltinESMExports();
}
