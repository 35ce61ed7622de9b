// expect: no race
// idiom: a shared WebAssembly.Memory grown after a published write: a writes an element and Atomics.stores a flag;
// b Atomics.loads the flag, grows the memory and writes the element through a view of the new buffer.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 2, shared: true });
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, memory, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { memory, i } = workerData;
  if (i === 0) {
    const words = new Int32Array(memory.buffer);
    at(0, () => {
      words[100] = 1;
      Atomics.store(words, 0, 1);
    });
  } else {
    at(1, () => {
      if (Atomics.load(new Int32Array(memory.buffer), 0) !== 1) throw new Error('not published');
      memory.grow(1);
      const words = new Int32Array(memory.buffer);
      words[100] = 2;
    });
  }
}
