// expect: no race
// idiom: hand-made barrier: arrivals count with Atomics.add, the last bumps the generation, the rest wait on it.
import { workers } from './sched.mjs';

const [COUNT, GEN, PARTIES] = [0, 1, 2];
/** Arrives; the last arrival releases the generation. @returns the generation to wait out. */
function arrive(b) {
  const g = Atomics.load(b, GEN);
  if (Atomics.add(b, COUNT, 1) + 1 === PARTIES) {
    Atomics.store(b, COUNT, 0);
    Atomics.add(b, GEN, 1);
    Atomics.notify(b, GEN);
  }
  return g;
}
const leave = (b, g) => {
  while (Atomics.load(b, GEN) === g) Atomics.wait(b, GEN, g);
};

const { main, joined, i, at, b, slots } = workers(import.meta.url, 2, () => ({
  b: new Int32Array(new SharedArrayBuffer(8)),
  slots: new Float64Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  const g = at(i, () => {
    slots[i] = 0.5 + i;
    return arrive(b);
  });
  leave(b, g); // worker 0 sleeps here until worker 1 arrives at step 1
  const other = at(2 + i, () => slots[1 - i]);
  if (other !== 1.5 - i) throw new Error(`worker ${i} saw ${other}`);
}
