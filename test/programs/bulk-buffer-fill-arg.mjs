// expect: race
// idiom: race through Buffer#fill's value: b's local.fill(shared) reads the first 4 bytes of shared (as many as fill local), one of which a writes; a's write of byte 6, which fill does not read, is no race.
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
      shared[6] = 6;
      shared[3] = 3; // race
    });
  } else {
    const local = Buffer.alloc(4);
    at(1, () => local.fill(shared)); // race
    if (local[3] !== 3) throw new Error(`filled ${[...local]}`);
  }
}
