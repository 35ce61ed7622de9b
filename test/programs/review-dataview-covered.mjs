// expect: race
// idiom: a covered loop whose opaque operation is a DataView write (`dv.setFloat64`, a call the rewriter cannot see
// into): worker 1 copies `a` into `b` through a DataView, skipping negative elements, its reads of `a` covered from the
// loop's second run on; the DataView's writes are checked by the runtime's DataView checks, so the one of element 5
// of `b`, which worker 0 wrote unordered with it, races.
import { workers } from './sched.mjs';

/** Copies the non-negative elements of `a` into the Float64 slots of `dv`. */
function copy(a, dv) {
  for (let j = 0; j < a.length; j++) {
    const x = a[j];
    if (x < 0) continue;
    dv.setFloat64(8 * j, x, true); // race
  }
}

const { main, joined, i, at, a, b } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(64)),
  b: new SharedArrayBuffer(64),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => {
    new Float64Array(b)[5] = 1; // race
  });
} else {
  at(1, () => {
    const dv = new DataView(b);
    const other = new DataView(new SharedArrayBuffer(64));
    copy(a, other);
    copy(a, other);
    copy(a, dv);
  });
}
