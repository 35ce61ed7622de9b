// expect: race
// idiom: Barrier from goldilocks/sync with the second barrier missing: a's next-phase write races with b's read.
import { isMainThread, workerData } from 'node:worker_threads';
import { Barrier } from 'goldilocks/sync';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const barrier = new Barrier(2).handle;
  const slots = new Int32Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, barrier, slots, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { slots, i } = workerData;
  const barrier = Barrier.from(workerData.barrier);
  at(i, () => {
    slots[i] = 10 + i;
  });
  barrier.wait();
  if (i === 0) {
    at(2, () => {
      slots[0] = 100; // race
    });
  } else {
    const other = at(3, () => slots[0]); // race
    if (other !== 100) throw new Error(`saw ${other}`);
  }
}
