// expect: race
// idiom: views over a shared WebAssembly.Memory (its buffer is a SharedArrayBuffer): a and b write one element unordered.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, memory, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { memory, i } = workerData;
  const words = new Int32Array(memory.buffer);
  if (i === 0) {
    at(0, () => {
      words[100] = 1; // race
    });
  } else {
    at(1, () => {
      words[100] = 2; // race
    });
  }
}
