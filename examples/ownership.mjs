// Example 2 (Figure 2) of the PLDI'07 paper in JavaScript: an IntBox is thread-local to thread 1, then reached
// through global `a` under lock ma, moved to global `b` under lock mb by thread 2, and finally thread-local to
// thread 3, which writes box.data without any lock. Ownership moves through the locks: no race, no exception
// (a lockset algorithm such as Eraser warns here).
//   npx goldilocks run examples/ownership.mjs
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { Mutex } from 'goldilocks/sync';

// Heap of IntBoxes: box i's data field is heap[i]; globals a, b hold box numbers (0 = null).
if (isMainThread) {
  const heap = new Int32Array(new SharedArrayBuffer(4 * 8));
  const globals = new Int32Array(new SharedArrayBuffer(8)); // [a, b]
  const ma = new Mutex('ma');
  const mb = new Mutex('mb');
  const data = { heap, globals, ma: ma.handle, mb: mb.handle };
  const threads = [1, 2, 3].map((n) => new Worker(new URL(import.meta.url), { workerData: { ...data, n } }));
  await Promise.all(threads.map((w) => new Promise((resolve) => w.on('exit', resolve))));
  console.log(`box 1 data = ${heap[1]} (expected 3); no DataRaceException`);
} else {
  const { heap, globals, n } = workerData;
  const ma = Mutex.from(workerData.ma);
  const mb = Mutex.from(workerData.mb);
  const A = 0;
  const B = 1;
  if (n === 1) {
    const tmp1 = 1; // tmp1 = new IntBox()
    heap[tmp1] = 0; // tmp1.data = 0
    ma.withLock(() => {
      globals[A] = tmp1; // a = tmp1
    });
  } else if (n === 2) {
    let tmp2 = 0;
    while (tmp2 === 0) tmp2 = ma.withLock(() => globals[A]); // tmp2 = a (once thread 1 has set it)
    mb.withLock(() => {
      globals[B] = tmp2; // b = tmp2
    });
  } else {
    let tmp3 = 0;
    while (tmp3 === 0) {
      mb.withLock(() => {
        if (globals[B] !== 0) {
          heap[globals[B]] = 2; // b.data = 2
          tmp3 = globals[B]; // tmp3 = b
        }
      });
    }
    heap[tmp3] = 3; // tmp3.data = 3: the box is thread-local now
  }
}
