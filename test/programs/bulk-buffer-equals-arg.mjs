// expect: race
// idiom: race through a Buffer method's argument: b's local.equals(shared) reads the byte a writes (the receiver is not shared).
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = Buffer.from(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sab: shared.buffer, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { sab, i } = workerData;
  const shared = Buffer.from(sab);
  if (i === 0) {
    at(0, () => {
      shared[5] = 1; // race
    });
  } else {
    const local = Buffer.alloc(8);
    const same = at(1, () => local.equals(shared)); // race
    if (same) throw new Error('equal');
  }
}
