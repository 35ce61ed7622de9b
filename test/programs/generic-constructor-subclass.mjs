// expect: race
// idiom: race through a TypedArray subclass constructor: b's new Bytes(shared) (class Bytes extends Uint8Array {}) copies the element a wrote.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Uint8Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[0] = 1; // race
    });
  } else {
    class Bytes extends Uint8Array {}
    const got = at(1, () => new Bytes(shared)); // race
    if (got[0] !== 1) throw new Error(`got ${got}`);
  }
}
