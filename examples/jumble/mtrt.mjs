// MTRT's threadCount of Jumble's evaluation (SPEC JVM98 `mtrt`, PLDI 2010 §6.1): the main thread sets the counter
// of running threads before starting them, each worker decrements it without synchronization when it is done, and
// nobody uses it afterwards. Stale reads corrupt the count, but the value is never used — benign.
//   node examples/jumble/mtrt.mjs            → mtrt image 1104
import { workers } from '../../test/programs/sched.mjs';

const { main, joined, i, at, threadCount, image } = workers(import.meta.url, 2, () => ({
  threadCount: new Int32Array(new SharedArrayBuffer(4)).fill(2), // RayTracer.threadCount
  image: new Int32Array(new SharedArrayBuffer(4 * 24)),
}));

if (main) {
  await joined;
  console.log(`mtrt image ${image.reduce((a, b) => a + b)}`);
} else {
  for (let k = i; k < image.length; k += 2) image[k] = (k * k) % 115; // render the rows of this worker
  at(i, () => {
    threadCount[0]--; // the racy, unused decrement (worker 1 after worker 0)
  });
}
