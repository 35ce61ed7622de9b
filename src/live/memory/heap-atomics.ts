/**
 * The page locks' atomic operations on the shadow heap, in WebAssembly. A JavaScript `Atomics` call costs about 145
 * machine instructions in Node 20 (V8 validates the typed array and the index in a builtin, and does not inline
 * it), so a page lock taken and released cost ~290 instructions, about a fifth of a range check's cost per 64-byte
 * page; WebAssembly's `i32.atomic.rmw.cmpxchg` and `i32.atomic.rmw.xchg` behind a JS-to-Wasm call cost ~46 each
 * (valgrind's instruction counts, 2026-11-26, issue 24 §1). For that, the heap is a shared `WebAssembly.Memory`'s
 * buffer (a SharedArrayBuffer like any other, up to 4 GiB, the limit of a 32-bit memory), and each thread
 * instantiates the two functions over it; a heap past 4 GiB stays a SharedArrayBuffer and uses `Atomics`.
 *
 * Both are sequentially consistent atomic operations, as `Atomics.compareExchange` and `Atomics.exchange` are, and
 * they interoperate with them on the same memory (WebAssembly threads proposal, §"Memory model"; ECMA-262 §29): a
 * lock taken by one kind and released by the other, or waited on by `Atomics.wait`, behaves as with `Atomics` alone.
 *
 * The module (hand-encoded, 91 bytes), in the text format:
 *
 *     (module
 *       (import "e" "m" (memory 1 65536 shared))
 *       (func (export "cas") (param $i i32) (param $expected i32) (param $value i32) (result i32)
 *         (i32.atomic.rmw.cmpxchg (i32.shl (local.get $i) (i32.const 2)) (local.get $expected) (local.get $value)))
 *       (func (export "xchg") (param $i i32) (param $value i32) (result i32)
 *         (i32.atomic.rmw.xchg (i32.shl (local.get $i) (i32.const 2)) (local.get $value))))
 *
 * `$i` is an Int32 index (< 2^30 in a 4 GiB memory): its byte address `$i << 2` is below 2^32 as an unsigned
 * 32-bit address, and aligned as the atomic operations require.
 */

// biome-ignore format: one line per section of the module
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  0x01, 0x0e, 0x02, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7f, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, // types
  0x02, 0x0b, 0x01, 0x01, 0x65, 0x01, 0x6d, 0x02, 0x03, 0x01, 0x80, 0x80, 0x04, // import e.m: memory 1..65536 shared
  0x03, 0x03, 0x02, 0x00, 0x01, // functions: cas (type 0), xchg (type 1)
  0x07, 0x0e, 0x02, 0x03, 0x63, 0x61, 0x73, 0x00, 0x00, 0x04, 0x78, 0x63, 0x68, 0x67, 0x00, 0x01, // exports
  0x0a, 0x1f, 0x02, // code
  0x0f, 0x00, 0x20, 0x00, 0x41, 0x02, 0x74, 0x20, 0x01, 0x20, 0x02, 0xfe, 0x48, 0x02, 0x00, 0x0b, // cas
  0x0d, 0x00, 0x20, 0x00, 0x41, 0x02, 0x74, 0x20, 0x01, 0xfe, 0x41, 0x02, 0x00, 0x0b, // xchg
]);

/** WebAssembly pages (64 KiB) of the largest memory the module can import: 4 GiB. */
const MAX_PAGES = 65536;
const PAGE_BYTES = 65536;

/**
 * A shared WebAssembly memory of `bytes` bytes for the shadow heap, or undefined when `bytes` is not a whole number
 * of 64 KiB pages up to 4 GiB, or the engine refuses it (the caller then makes a SharedArrayBuffer).
 */
export function heapMemory(bytes: number): WebAssembly.Memory | undefined {
  const pages = bytes / PAGE_BYTES;
  if (!Number.isInteger(pages) || pages < 1 || pages > MAX_PAGES) return undefined;
  try {
    return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  } catch {
    return undefined;
  }
}

/** Compare-exchange and exchange of the Int32 at index `i` of the heap (sequentially consistent). */
export interface HeapAtomics {
  cas(i: number, expected: number, value: number): number;
  xchg(i: number, value: number): number;
}

/** The module's atomic operations over `memory` (the heap's), instantiated in the calling thread. */
export function heapAtomics(memory: WebAssembly.Memory): HeapAtomics {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(MODULE), { e: { m: memory } });
  return exports as unknown as HeapAtomics;
}
