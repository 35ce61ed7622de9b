// expect: race
// idiom: mixed-size atomics: an Int8 compareExchange on byte 3 against an Int32 Atomics.add of bytes 0-3.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sab = new SharedArrayBuffer(8);
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sab, i })),
  );
  if (new Int32Array(sab)[0] !== 0x01000001) throw new Error('lost an update');
} else {
  const { at } = schedule(workerData.sched);
  const { sab, i } = workerData;
  const bytes = new Int8Array(sab);
  const word = new Int32Array(sab);
  if (i === 0) {
    at(0, () => Atomics.compareExchange(bytes, 3, 0, 1)); // race
  } else {
    at(1, () => Atomics.add(word, 0, 1)); // race
  }
}
