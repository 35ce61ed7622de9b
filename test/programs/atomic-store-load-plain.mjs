// expect: no race
// idiom: publication by one atomic store: b's Atomics.load reads a's Atomics.store, then b reads the element plainly.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const v = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, v, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { v, i } = workerData;
  if (i === 0) {
    at(0, () => Atomics.store(v, 0, 7));
  } else {
    // the store synchronizes-with this load (it reads from it), so the store happens before the plain read
    const seen = at(1, () => (Atomics.load(v, 0) === 7 ? v[0] : -1));
    if (seen !== 7) throw new Error(`saw ${seen}`);
  }
}
