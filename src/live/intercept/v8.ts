/**
 * Node's `v8` deserializers (lib/v8.js; V8's ValueDeserializer reads the input in native code): a read of the bytes of
 * the input when it is a view over shared memory (`Buffer.from(sab, offset, length)`, a TypedArray or a DataView),
 * checked before it runs like the other bulk reads (`./buffer.ts` toString, `./text.ts` TextDecoder#decode): every
 * byte of the view, the whole input the caller hands the deserializer (it reads the serialized value from the
 * start; bytes after the value's end are counted as read).
 * - `v8.deserialize(buffer)`: checked before it deserializes.
 * - `new v8.Deserializer(buffer)`, `new v8.DefaultDeserializer(buffer)` and subclasses of either: the input is
 *   checked at the deserializer's first read (`readHeader`, `readValue`, `readUint32`, `readUint64`, `readDouble`
 *   or `readRawBytes`), once: the bytes read later are counted as read then.
 * The exports are replaced on the `v8` module object, and the named exports with them
 * (`module.syncBuiltinESMExports`), so `require('v8')`, `import v8 from 'node:v8'` and `import { deserialize } from
 * 'node:v8'` all see them. The classes are proxies of Node's: `instanceof`, `prototype` and subclassing unchanged.
 */
import { syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';
import { sameText } from '../../hooks/native.js';
import type { Context } from '../context.js';
import { type AnyFn, checkAll, replaceFunction } from './common.js';

const dataViewGetter = (name: string) => Object.getOwnPropertyDescriptor(DataView.prototype, name)!.get!;
const viewBuffer = dataViewGetter('buffer');
const viewOffset = dataViewGetter('byteOffset');
const viewLength = dataViewGetter('byteLength');

/** The read methods of `v8.Deserializer.prototype` (Node.js v8 docs, "class: v8.Deserializer"). */
const READS = ['readHeader', 'readValue', 'readUint32', 'readUint64', 'readDouble', 'readRawBytes'];

/**
 * Replaces `v8.deserialize` by a function that checks its input's shared bytes as read, then deserializes, and the
 * deserializer classes by proxies that remember an input over shared memory, checked at the first read.
 */
export function patchV8(ctx: Context): void {
  /** Checks the bytes of `input` as read by `fn`'s caller, when they are shared memory. */
  const checkInput = (input: unknown, what: string, fn: AnyFn): void => {
    if (ctx.shared(input)) checkAll(ctx, input as ArrayBufferView, 0, what, fn);
    else if (input instanceof DataView) {
      const buffer = viewBuffer.call(input);
      if (buffer instanceof SharedArrayBuffer)
        ctx.checkRange(
          buffer,
          viewOffset.call(input) as number,
          viewLength.call(input) as number,
          0,
          ctx.callerSite(fn),
          what,
          fn,
        );
    }
  };

  const original = v8.deserialize as AnyFn;
  const deserialize = function (this: unknown, ...args: unknown[]): unknown {
    checkInput(args[0], 'v8.deserialize', deserialize);
    return Reflect.apply(original, this, args);
  };
  replaceFunction(v8, 'deserialize', deserialize as AnyFn);

  /** Deserializers constructed over an input not checked yet, to their input. */
  const unread = new WeakMap<object, unknown>();
  const track = {
    construct: (target: AnyFn, args: unknown[], newTarget: AnyFn) => {
      const d = Reflect.construct(target, args, newTarget) as object;
      if (ArrayBuffer.isView(args[0])) unread.set(d, args[0]);
      return d;
    },
  } as ProxyHandler<AnyFn>;
  for (const name of ['Deserializer', 'DefaultDeserializer'] as const) {
    const desc = Object.getOwnPropertyDescriptor(v8, name)!;
    const proxy = new Proxy(desc.value as AnyFn, track);
    sameText(proxy, desc.value as AnyFn);
    Object.defineProperty(v8, name, { ...desc, value: proxy });
  }
  const proto = v8.Deserializer.prototype as unknown as Record<string, AnyFn>;
  for (const name of READS) {
    const read = proto[name];
    const what = `v8.Deserializer#${name}`;
    const checked = function (this: unknown, ...args: unknown[]): unknown {
      const d = this as object;
      if (unread.has(d)) {
        const input = unread.get(d);
        unread.delete(d);
        checkInput(input, what, checked);
      }
      return Reflect.apply(read, this, args);
    };
    replaceFunction(proto, name, checked);
  }
  syncBuiltinESMExports();
}
