// expect: no race
// idiom: new Uint8Array(sab) and Buffer.from(sab) make views of the same memory without reading it; a hands the bytes to b through Atomics, and b reads them through both views.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Int32Array(new SharedArrayBuffer(16));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  const bytes = new Uint8Array(shared.buffer);
  const buf = Buffer.from(shared.buffer);
  if (i === 0) {
    at(0, () => {
      bytes[4] = 1;
      buf[8] = 2;
      Atomics.store(shared, 0, 1);
    });
  } else {
    at(1, () => {
      if (Atomics.load(shared, 0) !== 1) throw new Error('not published');
      if (buf[4] + bytes[8] !== 3) throw new Error('bytes not seen');
    });
  }
}
