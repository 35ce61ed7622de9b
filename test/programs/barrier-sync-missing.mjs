// expect: race
// idiom: Barrier from goldilocks/sync with the second barrier missing: a's next-phase write races with b's read.
import { Barrier } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, i, at, handle, slots } = workers(import.meta.url, 2, () => ({
  handle: new Barrier(2).handle,
  slots: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  const barrier = Barrier.from(handle);
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
