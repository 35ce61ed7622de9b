// expect: race
// idiom: race through slice(): b's copy of elements 0-3 reads the element a wrote.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Uint32Array(new SharedArrayBuffer(32));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[2] = 0xdead; // race
    });
  } else {
    const copy = at(1, () => shared.slice(0, 4)); // race
    if (copy[2] !== 0xdead) throw new Error(`copied ${copy}`);
  }
}
