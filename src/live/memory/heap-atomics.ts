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
 * A range check locks and releases all the pages of a loop at once, most of them consecutive (`Shadow.accessRuns`):
 * `lockRange` and `unlockRange` do it for a run of consecutive pages in one JS-to-Wasm call, the loop inside, instead
 * of one call per page (bench live-instructions `columns`, lufact's loop, see the commit). They stop at the first
 * page whose lock is not free (`lockRange`) or that had waiters (`unlockRange`), which the caller then takes the
 * slow way (`../shadow/page-locks.ts`).
 *
 * The module (hand-encoded, 225 bytes), in the text format:
 *
 *     (module
 *       (import "e" "m" (memory 1 65536 shared))
 *       (func (export "cas") (param $i i32) (param $expected i32) (param $value i32) (result i32)
 *         (i32.atomic.rmw.cmpxchg (i32.shl (local.get $i) (i32.const 2)) (local.get $expected) (local.get $value)))
 *       (func (export "xchg") (param $i i32) (param $value i32) (result i32)
 *         (i32.atomic.rmw.xchg (i32.shl (local.get $i) (i32.const 2)) (local.get $value)))
 *       (func (export "lockRange") (param $first i32) (param $n i32) (param $self i32) (result i32) (local $k i32)
 *         (block (loop
 *           (br_if 1 (i32.ge_u (local.get $k) (local.get $n)))
 *           (br_if 1 (i32.atomic.rmw.cmpxchg (i32.shl (i32.add (local.get $first) (i32.shl (local.get $k) (i32.const 2)))
 *             (i32.const 2)) (i32.const 0) (local.get $self)))
 *           (local.set $k (i32.add (local.get $k) (i32.const 1)))
 *           (br 0)))
 *         (local.get $k))
 *       (func (export "unlockRange") (param $first i32) (param $n i32) (result i32) (local $k i32)
 *         (block (loop
 *           (br_if 1 (i32.ge_u (local.get $k) (local.get $n)))
 *           (br_if 1 (i32.and (i32.atomic.rmw.xchg (i32.shl (i32.add (local.get $first) (i32.shl (local.get $k)
 *             (i32.const 2))) (i32.const 2)) (i32.const 0)) (i32.const 0x40000000)))
 *           (local.set $k (i32.add (local.get $k) (i32.const 1)))
 *           (br 0)))
 *         (local.get $k)))
 *
 * `$i` is an Int32 index (< 2^30 in a 4 GiB memory): its byte address `$i << 2` is below 2^32 as an unsigned
 * 32-bit address, and aligned as the atomic operations require. The pages of a range are {@link PAGE_LOCK_STRIDE}
 * Int32 apart (`<< 2`); 0x40000000 is a lock word's waiters bit (`./state.ts`).
 */

// biome-ignore format: one line per section of the module
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  0x01, 0x0e, 0x02, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7f, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, // types
  0x02, 0x0b, 0x01, 0x01, 0x65, 0x01, 0x6d, 0x02, 0x03, 0x01, 0x80, 0x80, 0x04, // import e.m: memory 1..65536 shared
  0x03, 0x05, 0x04, 0x00, 0x01, 0x00, 0x01, // functions: cas (type 0), xchg (type 1), lockRange (0), unlockRange (1)
  0x07, 0x28, 0x04, 0x03, 0x63, 0x61, 0x73, 0x00, 0x00, 0x04, 0x78, 0x63, 0x68, 0x67, 0x00, 0x01, 0x09, 0x6c, 0x6f, 0x63, 0x6b, 0x52, 0x61, 0x6e, 0x67, 0x65, 0x00, 0x02, 0x0b, 0x75, 0x6e, 0x6c, 0x6f, 0x63, 0x6b, 0x52, 0x61, 0x6e, 0x67, 0x65, 0x00, 0x03, // exports
  0x0a, 0x88, 0x01, 0x04, // code
  0x0f, 0x00, 0x20, 0x00, 0x41, 0x02, 0x74, 0x20, 0x01, 0x20, 0x02, 0xfe, 0x48, 0x02, 0x00, 0x0b, // cas
  0x0d, 0x00, 0x20, 0x00, 0x41, 0x02, 0x74, 0x20, 0x01, 0xfe, 0x41, 0x02, 0x00, 0x0b, // xchg
  0x31, 0x01, 0x01, 0x7f, 0x02, 0x40, 0x03, 0x40, 0x20, 0x03, 0x20, 0x01, 0x4f, 0x0d, 0x01, 0x20, 0x00, 0x20, 0x03, 0x41, 0x02, 0x74, 0x6a, 0x41, 0x02, 0x74, 0x41, 0x00, 0x20, 0x02, 0xfe, 0x48, 0x02, 0x00, 0x0d, 0x01, 0x20, 0x03, 0x41, 0x01, 0x6a, 0x21, 0x03, 0x0c, 0x00, 0x0b, 0x0b, 0x20, 0x03, 0x0b, // lockRange
  0x36, 0x01, 0x01, 0x7f, 0x02, 0x40, 0x03, 0x40, 0x20, 0x02, 0x20, 0x01, 0x4f, 0x0d, 0x01, 0x20, 0x00, 0x20, 0x02, 0x41, 0x02, 0x74, 0x6a, 0x41, 0x02, 0x74, 0x41, 0x00, 0xfe, 0x41, 0x02, 0x00, 0x41, 0x80, 0x80, 0x80, 0x80, 0x04, 0x71, 0x0d, 0x01, 0x20, 0x02, 0x41, 0x01, 0x6a, 0x21, 0x02, 0x0c, 0x00, 0x0b, 0x0b, 0x20, 0x02, 0x0b, // unlockRange
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
  /**
   * Takes the page locks at `first`, `first` + {@link PAGE_LOCK_STRIDE}, ... (`n` of them) for lock value `self`,
   * each by a compare-exchange of 0, in order, stopping at the first not free. @returns how many it took.
   */
  lockRange(first: number, n: number, self: number): number;
  /**
   * Releases the `n` page locks from `first` (as {@link lockRange}), each by an exchange with 0, in order, stopping
   * after the first that had waiters. @returns k: the first k were released without waiters; when k < n, lock k was
   * released too and had waiters (to be woken).
   */
  unlockRange(first: number, n: number): number;
}

/** Int32 from one page lock to the next in {@link HeapAtomics.lockRange} (`PAGE_INTS` of `../shadow/table.ts`). */
export const PAGE_LOCK_STRIDE = 4;

/** The module's atomic operations over `memory` (the heap's), instantiated in the calling thread. */
export function heapAtomics(memory: WebAssembly.Memory): HeapAtomics {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(MODULE), { e: { m: memory } });
  return exports as unknown as HeapAtomics;
}
