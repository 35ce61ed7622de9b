// expect: race
// idiom: race through TextDecoder.decode() of a view over shared memory while another worker writes a byte of it.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const bytes = new Uint8Array(new SharedArrayBuffer(4));
  bytes.set([0x6f, 0x6b]); // 'ok'
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, bytes, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { bytes, i } = workerData;
  if (i === 0) {
    at(0, () => {
      bytes[1] = 0x66; // race
    });
  } else {
    const text = at(1, () => new TextDecoder().decode(bytes.subarray(0, 2))); // race
    if (text !== 'of') throw new Error(`decoded ${text}`);
  }
}
