/**
 * Node's `Buffer` (lib/buffer.js): `Buffer.from(view)` (reads the view), and the `Buffer.prototype` methods that
 * read or write shared bytes natively — toString, write, copy, fill, equals, compare, the `readX`/`writeX` number
 * methods (the range they touch checked before they run), indexOf, lastIndexOf and includes (checked after the
 * search, see {@link patchBufferSearch}). Buffer's toJSON and `[util.inspect.custom]`: `./format.ts`.
 */
import type { Context } from '../context.js';
import { Access } from '../shadow/goldilocks.js';
import {
  type AnyFn,
  checkAll,
  checkElements,
  integer,
  lengthOf,
  override,
  replaceFunction,
  wrapMethod,
} from './common.js';

export function patchBuffer(ctx: Context): void {
  // Buffer.from(view) copies a TypedArray's elements (Buffer.from(view.buffer) shares memory: not a read)
  const from = Buffer.from as AnyFn;
  const bufferFrom = function (this: unknown, value: unknown, ...rest: unknown[]): unknown {
    if (ctx.shared(value)) {
      const v = value as Int8Array;
      checkElements(ctx, v, 0, v.length, 0, 'Buffer.from', bufferFrom);
    }
    return Reflect.apply(from, this, [value, ...rest]);
  };
  replaceFunction(Buffer, 'from', bufferFrom);
  const proto = Buffer.prototype as unknown as Record<string, AnyFn>;
  patchBufferSearch(ctx, proto);
  const len = (b: Int8Array) => b.length;
  wrapMethod(ctx, proto, 'Buffer', 'toString', (self, [, start, end], fn, what) => {
    const from = Math.max(0, Math.min(integer(start), len(self)));
    const to = end === undefined ? len(self) : Math.max(from, Math.min(integer(end), len(self)));
    checkElements(ctx, self, from, to, 0, what, fn);
  });
  wrapMethod(ctx, proto, 'Buffer', 'write', (self, [string, offset, length, encoding], fn, what) => {
    let off = 0;
    let max = len(self);
    let enc = encoding;
    if (typeof offset === 'string') enc = offset;
    else {
      off = integer(offset);
      if (typeof length === 'string') enc = length;
      else if (length !== undefined) max = integer(length);
    }
    if (off < 0 || off > len(self)) return;
    const bytes = Math.min(Buffer.byteLength(String(string), enc as BufferEncoding), len(self) - off, max);
    checkElements(ctx, self, off, off + bytes, Access.WRITE, what, fn);
  });
  wrapMethod(
    ctx,
    proto,
    'Buffer',
    'copy',
    (self, [target, targetStart, sourceStart, sourceEnd], fn, what) => {
      const t = target as Int8Array;
      const ts = integer(targetStart);
      const ss = integer(sourceStart);
      const se = sourceEnd === undefined ? len(self) : Math.min(integer(sourceEnd), len(self));
      const n = Math.min(se - ss, (t?.length ?? 0) - ts);
      if (n <= 0 || ts < 0 || ss < 0) return;
      if (ctx.shared(self)) checkElements(ctx, self, ss, ss + n, 0, what, fn);
      if (ctx.shared(t)) checkElements(ctx, t, ts, ts + n, Access.WRITE, what, fn);
    },
    true,
  );
  // fill(value): a TypedArray value's first bytes are read, as many as fill the range (Node's bindingFill), shared
  // or not whatever `this` is
  wrapMethod(
    ctx,
    proto,
    'Buffer',
    'fill',
    (self, [value, offset, end], fn, what) => {
      const from = typeof offset === 'number' ? Math.max(0, integer(offset)) : 0;
      const to = typeof end === 'number' ? Math.min(integer(end), len(self)) : len(self);
      if (ctx.shared(value) && to > from) {
        const v = value as Int8Array;
        const n = Math.min(to - from, v.byteLength);
        if (n > 0)
          ctx.checkRange(v.buffer as SharedArrayBuffer, v.byteOffset, n, 0, ctx.callerSite(fn), what, fn);
      }
      if (ctx.shared(self)) checkElements(ctx, self, from, to, Access.WRITE, what, fn);
    },
    true,
  );
  for (const name of ['equals', 'compare']) {
    wrapMethod(
      ctx,
      proto,
      'Buffer',
      name,
      (self, [other], fn, what) => {
        if (ctx.shared(self)) checkElements(ctx, self, 0, len(self), 0, what, fn);
        if (ctx.shared(other))
          checkElements(ctx, other as Int8Array, 0, (other as Int8Array).length, 0, what, fn);
      },
      true,
    );
  }
  const sizeOf = (name: string): number => {
    if (/Int8$/.test(name)) return 1;
    if (/Int16/.test(name)) return 2;
    if (/Int32|Float/.test(name)) return 4;
    if (/Double|BigU?Int64/.test(name)) return 8;
    return 0; // readIntLE(offset, byteLength) and the like: the size is an argument
  };
  for (const name of Object.getOwnPropertyNames(Buffer.prototype)) {
    const m = /^(read|write)(U?Int|Int|Float|Double|BigU?Int|BigInt)/.exec(name);
    if (!m) continue;
    const write = m[1] === 'write';
    const fixed = sizeOf(name);
    wrapMethod(ctx, proto, 'Buffer', name, (self, args, fn, what) => {
      const off = args[write ? 1 : 0] === undefined ? 0 : integer(args[write ? 1 : 0]);
      const size = fixed || integer(args[write ? 2 : 1]);
      if (off >= 0 && size > 0 && off + size <= len(self))
        checkElements(ctx, self, off, off + size, write ? Access.WRITE : 0, what, fn);
    });
  }
}

/**
 * `Buffer.prototype` indexOf, lastIndexOf and includes (a shared `this` or a shared Buffer or Uint8Array value): the
 * native search reads the bytes a scan from the start offset (Node's `IndexOfOffset`, src/node_buffer.cc) up to
 * the end of the match reads — backwards for lastIndexOf — or to the end of the buffer when there is no match, and
 * the whole value. Which bytes those are depends on where the match is, so the original search runs first and the
 * check follows before its result is returned: a racy read's value never reaches the program, but unlike the other
 * patches the read itself has happened when `throw` stops the program. includes is indexOf's result `!== -1`, as in
 * Node (whose includes calls `this.indexOf`).
 */
function patchBufferSearch(ctx: Context, proto: Record<string, AnyFn>): void {
  const indexOf = proto.indexOf;
  const lastIndexOf = proto.lastIndexOf;
  /** The byte length of search value `value` (lib/buffer.js bidirectionalIndexOf). */
  const needleLength = (value: unknown, encoding: unknown): number => {
    if (typeof value === 'number') return 1;
    if (typeof value === 'string') return Buffer.byteLength(value, encoding as BufferEncoding);
    return (value as Uint8Array).byteLength;
  };
  /** The start of the search (lib/buffer.js bidirectionalIndexOf, then IndexOfOffset), or -1: none. */
  const startOf = (len: number, byteOffset: unknown, n: number, forward: boolean): number => {
    let off = typeof byteOffset === 'string' ? Number.NaN : Number(byteOffset);
    if (Number.isNaN(off)) off = forward ? 0 : len;
    off = Math.trunc(Math.min(Math.max(off, -0x80000000), 0x7fffffff));
    if (off < 0) return off + len >= 0 ? len + off : forward || n === 0 ? 0 : -1;
    if (off + n <= len) return off;
    return n === 0 ? len : forward ? -1 : len - 1;
  };
  const search = (name: 'indexOf' | 'lastIndexOf' | 'includes', forward: boolean) =>
    override(
      ctx,
      proto,
      'Buffer',
      name,
      (self, args, fn, what) => {
        const [value, byteOffset, encoding] = args;
        const p = Reflect.apply(forward ? indexOf : lastIndexOf, self, args) as number;
        const sharedValue = ctx.shared(value);
        if (ctx.shared(self) || sharedValue) {
          const enc = typeof byteOffset === 'string' ? byteOffset : (encoding ?? 'utf8');
          const n = needleLength(value, enc);
          const len = lengthOf(self);
          const o = startOf(len, byteOffset, n, forward);
          if (ctx.shared(self) && o >= 0 && n > 0 && len > 0) {
            const site = ctx.callerSite(fn);
            if (forward) checkElements(ctx, self, o, p >= 0 ? p + n : len, 0, what, fn, site);
            else checkElements(ctx, self, Math.max(p, 0), Math.min(len, o + n), 0, what, fn, site);
          }
          if (sharedValue) checkAll(ctx, value as Int8Array, 0, what, fn);
        }
        return name === 'includes' ? p !== -1 : p;
      },
      true,
    );
  search('indexOf', true);
  search('lastIndexOf', false);
  search('includes', true);
}
