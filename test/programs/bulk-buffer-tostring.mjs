// expect: race
// idiom: race through Buffer.from(sab).toString(): b decodes bytes a is writing.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sab = new SharedArrayBuffer(8);
  new Uint8Array(sab).set([0x68, 0x65, 0x6c, 0x6c, 0x6f]); // 'hello'
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sab, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { sab, i } = workerData;
  if (i === 0) {
    const bytes = new Uint8Array(sab);
    at(0, () => {
      bytes[0] = 0x4a; // race
    });
  } else {
    const text = at(1, () => Buffer.from(sab, 0, 5).toString('latin1')); // race
    if (text !== 'Jello') throw new Error(`decoded ${text}`);
  }
}
