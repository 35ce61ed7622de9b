// expect: race
// idiom: race through TextEncoder.encodeInto() writing into shared memory while another worker reads a byte of it.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const bytes = new Uint8Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, bytes, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { bytes, i } = workerData;
  if (i === 0) {
    const seen = at(0, () => bytes[1]); // race
    if (seen !== 0) throw new Error(`read ${seen}`);
  } else {
    const { written } = at(1, () => new TextEncoder().encodeInto('ok', bytes)); // race
    if (written !== 2) throw new Error(`wrote ${written}`);
  }
}
