// expect: no race
// idiom: Barrier from goldilocks/sync: each worker writes its slot, waits at the barrier, then reads the other's slot.
import { Barrier } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, i, at, handle, slots } = workers(import.meta.url, 2, () => ({
  handle: new Barrier(2, 'phase').handle,
  slots: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  const barrier = Barrier.from(handle);
  at(i, () => {
    slots[i] = 10 + i;
  });
  barrier.wait(); // worker 0 sleeps here until worker 1 arrives at step 1
  const other = at(2 + i, () => slots[1 - i]);
  if (other !== 11 - i) throw new Error(`worker ${i} saw ${other}`);
}
