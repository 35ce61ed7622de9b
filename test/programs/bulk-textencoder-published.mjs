// expect: no race
// idiom: TextEncoder.encodeInto() writes into shared memory, published by Atomics.store; the other worker reads the bytes after Atomics.load.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const bytes = new Uint8Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, flag, bytes, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { flag, bytes, i } = workerData;
  if (i === 0) {
    at(0, () => {
      new TextEncoder().encodeInto('ok', bytes);
      Atomics.store(flag, 0, 1);
    });
  } else {
    at(1, () => {
      while (Atomics.load(flag, 0) !== 1);
      const text = String.fromCharCode(bytes[0], bytes[1]);
      if (text !== 'ok') throw new Error(`read ${text}`);
    });
  }
}
