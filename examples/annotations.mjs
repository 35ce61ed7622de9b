// goldilocks/annotations: telling the detector about synchronization it cannot see. A producer hands a result to
// a consumer through a flag that WebAssembly code sets and polls with its own atomics (i32.atomic.store/load):
// the runtime instruments JavaScript, not WebAssembly, so without annotations it sees no order between the write
// of the result and its read, and reports a race. happensBefore('result') right before the flag is set and
// happensAfter('result') right after it is seen give it the edge. Both threads also bump a statistics counter
// without synchronization; benignRace says that race is accepted: it is counted as benign, not reported.
//   npx goldilocks run examples/annotations.mjs                  # no race; 1 benign (annotated)
//   GOLDILOCKS_EXAMPLE_NO_ANNOTATIONS=1 npx goldilocks run --on-race=report examples/annotations.mjs  # 2 races
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { benignRace, happensAfter, happensBefore } from 'goldilocks/annotations';

const annotate = !process.env.GOLDILOCKS_EXAMPLE_NO_ANNOTATIONS;

// (module (import "env" "memory" (memory 1 1 shared))
//   (func (export "set") (param i32 i32) local.get 0 local.get 1 i32.atomic.store)
//   (func (export "get") (param i32) (result i32) local.get 0 i32.atomic.load))
// biome-ignore format: the module's bytes, a section a line
const WASM = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x0b, 0x02, 0x60, 0x02, 0x7f, 0x7f, 0x00, 0x60, 0x01, 0x7f, 0x01, 0x7f,
  0x02, 0x10, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x03, 0x01, 0x01,
  0x03, 0x03, 0x02, 0x00, 0x01,
  0x07, 0x0d, 0x02, 0x03, 0x73, 0x65, 0x74, 0x00, 0x00, 0x03, 0x67, 0x65, 0x74, 0x00, 0x01,
  0x0a, 0x15, 0x02, 0x0a, 0x00, 0x20, 0x00, 0x20, 0x01, 0xfe, 0x17, 0x02, 0x00, 0x0b,
  0x08, 0x00, 0x20, 0x00, 0xfe, 0x10, 0x02, 0x00, 0x0b,
]);

if (isMainThread) {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  const result = new Float64Array(new SharedArrayBuffer(8));
  const stats = new Int32Array(new SharedArrayBuffer(4));
  if (annotate) benignRace(stats, 0, 1, 'approximate request counter');
  for (const role of ['producer', 'consumer'])
    new Worker(new URL(import.meta.url), { workerData: { memory, result, stats, role } });
} else {
  const { memory, result, stats, role } = workerData;
  const { exports: flag } = new WebAssembly.Instance(new WebAssembly.Module(WASM), { env: { memory } });
  stats[0]++; // both threads, unsynchronized: benign by annotation
  if (role === 'producer') {
    result[0] = Math.PI;
    if (annotate) happensBefore('result');
    flag.set(0, 1);
  } else {
    while (flag.get(0) === 0);
    if (annotate) happensAfter('result');
    console.log(`consumer read ${result[0]}`);
  }
}
