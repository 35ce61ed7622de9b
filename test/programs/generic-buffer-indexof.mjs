// expect: race
// idiom: race through Buffer#indexOf: b's Buffer (over the shared memory) searched for the byte a wrote reads it.
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
    at(0, () => {
      shared[9] = 0x42; // race
    });
  } else {
    const got = at(1, () => Buffer.from(shared.buffer).indexOf(0x42)); // race
    if (got !== 9) throw new Error(`got ${got}`);
  }
}
