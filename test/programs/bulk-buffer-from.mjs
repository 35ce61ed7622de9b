// expect: race
// idiom: race through Buffer.from(view), which copies the view's bytes: a wrote one of them.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Uint8Array(new SharedArrayBuffer(16));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(1, () => {
      shared[9] = 7; // race
    });
  } else {
    const copy = at(0, () => Buffer.from(shared)); // race
    if (copy.length !== 16) throw new Error(`copied ${copy.length} bytes`);
  }
}
