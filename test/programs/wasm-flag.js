/**
 * A flag in WebAssembly shared memory, set and read by WebAssembly atomics (`i32.atomic.store`,
 * `i32.atomic.load`): synchronization the Goldilocks runtime cannot see (it instruments JavaScript, not WebAssembly
 * code), for the annotation programs (annotations-*.mjs). Not a program (no `// expect:` header; not `.mjs`).
 *
 * The module, in the text format:
 *   (module (import "env" "memory" (memory 1 1 shared))
 *     (func (export "set") (param i32 i32) local.get 0 local.get 1 i32.atomic.store)
 *     (func (export "get") (param i32) (result i32) local.get 0 i32.atomic.load))
 */
// biome-ignore format: the module's bytes, a section a line
const BYTES = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x0b, 0x02, 0x60, 0x02, 0x7f, 0x7f, 0x00, 0x60, 0x01, 0x7f, 0x01, 0x7f, // types
  0x02, 0x10, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x03, 0x01, 0x01, // import
  0x03, 0x03, 0x02, 0x00, 0x01, // functions
  0x07, 0x0d, 0x02, 0x03, 0x73, 0x65, 0x74, 0x00, 0x00, 0x03, 0x67, 0x65, 0x74, 0x00, 0x01, // exports
  0x0a, 0x15, 0x02, 0x0a, 0x00, 0x20, 0x00, 0x20, 0x01, 0xfe, 0x17, 0x02, 0x00, 0x0b, // code: set
  0x08, 0x00, 0x20, 0x00, 0xfe, 0x10, 0x02, 0x00, 0x0b, // get
]);

/** A new shared WebAssembly memory of one page, for {@link flag}. */
export const flagMemory = () => new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });

/** The flag at byte 0 of `memory`: `set(v)` and `get()` are WebAssembly atomics. */
export function flag(memory) {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(BYTES), { env: { memory } });
  return { set: (v) => exports.set(0, v), get: () => exports.get(0) };
}
