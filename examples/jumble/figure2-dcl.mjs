// Figure 2 of Jumble (Flanagan & Freund, PLDI 2010): double-checked locking of a lazily created Point (x = y = 1).
// `p` (the published point, 0 = null) is read without the lock: a stale null only re-runs the locked block, so its
// race is benign. But a thread that gets `p` without the lock has no happens-before with the constructor, so its
// reads of `p.x`, `p.y` may legally return the initial 0 (ECMA-262 "Memory Model"): the slope becomes Infinity or
// 0 — destructive. Worker 0 creates the point first (step 0), worker 1 then reads it (step 1).
//   node examples/jumble/figure2-dcl.mjs            → slope 1 1
//   goldilocks jumble examples/jumble/figure2-dcl.mjs
import { workers } from '../../test/programs/sched.mjs';

const { main, joined, i, at, lock, p, points, slopes } = workers(import.meta.url, 2, () => ({
  lock: new Int32Array(new SharedArrayBuffer(4)), // the Point.class monitor
  p: new Int32Array(new SharedArrayBuffer(4)), // static Point p: an index into points, 0 = null
  points: new Float64Array(new SharedArrayBuffer(32)), // point k: x at 2k, y at 2k + 1
  slopes: new Float64Array(new SharedArrayBuffer(16)), // each worker's result
}));

function synchronized(fn) {
  while (Atomics.compareExchange(lock, 0, 0, 1) !== 0) Atomics.wait(lock, 0, 1);
  try {
    return fn();
  } finally {
    Atomics.store(lock, 0, 0);
    Atomics.notify(lock, 0);
  }
}

function get() {
  const t = p[0]; // racy read of p (benign)
  if (t !== 0) return t;
  return synchronized(() => {
    if (p[0] === 0) {
      points[2] = 1.0; // new Point(): x = 1.0
      points[3] = 1.0; //              y = 1.0
      p[0] = 1;
    }
    return p[0];
  });
}

const slope = () => points[2 * get() + 1] / points[2 * get()]; // racy reads of p.y, p.x (destructive)

if (main) {
  await joined;
  console.log(`slope ${slopes[0]} ${slopes[1]}`);
} else {
  at(i, () => {
    slopes[i] = slope();
  });
}
