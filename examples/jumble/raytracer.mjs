// RayTracer's checksum of Jumble's evaluation (Java Grande `raytracer`, PLDI 2010 §6.1): each worker renders its
// rows, then adds its local checksum to the global one (a Float64Array element) without synchronization, and the
// main thread validates the total. Worker 1 adds after worker 0 (steps 0, 1), so a plain run never loses an
// update; but worker 1's read of the checksum may legally return the initial 0, or a value torn from two visible
// writes (a Float64 may tear: ECMA-262 "Memory Model"): the validation fails — destructive.
//   node examples/jumble/raytracer.mjs            → raytracer checksum 2043
import { workers } from '../../test/programs/sched.mjs';

const WIDTH = 16;
const HEIGHT = 16;
/** The "pixel" of a row and column: a deterministic shade 0..255. */
const shade = (x, y) => (x * 37 + y * 11) % 17;
const render = (rows) => rows.reduce((sum, y) => sum + Array.from({ length: WIDTH }, (_, x) => shade(x, y)).reduce((a, b) => a + b), 0);

const { main, joined, i, at, checksum } = workers(import.meta.url, 2, () => ({
  checksum: new Float64Array(new SharedArrayBuffer(8)), // JGFRayTracerBench.checksum1
}));

if (main) {
  await joined;
  const expected = render(Array.from({ length: HEIGHT }, (_, y) => y));
  if (checksum[0] !== expected) throw new Error(`Validation failed: checksum ${checksum[0]} ≠ ${expected}`);
  console.log(`raytracer checksum ${checksum[0]}`);
} else {
  const local = render(Array.from({ length: HEIGHT / 2 }, (_, k) => 2 * k + i)); // interleaved rows
  at(i, () => {
    checksum[0] += local; // the racy update
  });
}
