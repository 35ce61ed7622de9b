// expect: no race
// idiom: Barrier from goldilocks/sync: each worker writes its slot, waits at the barrier, then reads the other's slot.
import { isMainThread, workerData } from 'node:worker_threads';
import { Barrier } from 'goldilocks/sync';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const barrier = new Barrier(2, 'phase').handle;
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
  barrier.wait(); // worker 0 sleeps here until worker 1 arrives at step 1
  const other = at(2 + i, () => slots[1 - i]);
  if (other !== 11 - i) throw new Error(`worker ${i} saw ${other}`);
}
