// expect: no race
// idiom: one goldilocks/sync Barrier reused for three phases: write own slot, barrier, read other's, barrier, rewrite.
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
  if (slots[0] !== 111 || slots[1] !== 110) throw new Error(`slots ${slots[0]} ${slots[1]}`);
} else {
  const { at } = schedule(workerData.sched);
  const { slots, i } = workerData;
  const barrier = Barrier.from(workerData.barrier);
  at(i, () => {
    slots[i] = 10 + i;
  });
  barrier.wait();
  const other = at(2 + i, () => slots[1 - i]);
  barrier.wait(); // without this one, the write below races with the other worker's read
  at(5 - i, () => {
    slots[i] = 100 + other;
  });
  barrier.wait();
  if (slots[1 - i] !== 100 + 10 + i) throw new Error(`worker ${i} saw ${slots[1 - i]}`);
}
