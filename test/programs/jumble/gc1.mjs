// [GC1] live (issue 22 §1): the main thread writes x[0] = 1 … 20 after forking a worker that, ordered after those
// writes only by the invisible schedule (no happens-before), reads x[0]: every write, and the initial 0, stay
// visible to the worker, so [GC1] must keep them all and Oldest returns 0. After joining the worker, the main thread
// alone writes y[0] = 1 … 40: now only its own clock counts, and [GC1] removes what it can no longer read.
//   node test/programs/jumble/gc1.mjs   → x 20, then y 40 (x 0 under goldilocks run --jumble oldest)
import { workers } from '../sched.mjs';

const { main, joined, at, x, y } = workers(import.meta.url, 1, () => ({
  x: new Int32Array(new SharedArrayBuffer(8)),
  y: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  at(0, () => {
    for (let v = 1; v <= 20; v++) x[0] = v;
  });
  await joined;
  for (let v = 1; v <= 40; v++) y[0] = v;
  console.log(`y ${y[0]}`);
} else {
  at(1, () => console.log(`x ${x[0]}`));
}
