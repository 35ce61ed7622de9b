// expect: no race
// idiom: one goldilocks/sync Barrier reused for three phases: write own slot, barrier, read other's, barrier, rewrite.
import { Barrier } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, i, at, handle, slots } = workers(import.meta.url, 2, () => ({
  handle: new Barrier(2).handle,
  slots: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
  if (slots[0] !== 111 || slots[1] !== 110) throw new Error(`slots ${slots[0]} ${slots[1]}`);
} else {
  const barrier = Barrier.from(handle);
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
