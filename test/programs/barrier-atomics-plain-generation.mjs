// expect: race
// idiom: hand-made barrier whose last arrival bumps the generation with a plain store: the waiter's Atomics.load races with it.
import { workers } from './sched.mjs';

const [COUNT, GEN, PARTIES] = [0, 1, 2];
function arrive(b) {
  const g = Atomics.load(b, GEN);
  if (Atomics.add(b, COUNT, 1) + 1 === PARTIES) {
    Atomics.store(b, COUNT, 0);
    b[GEN] = g + 1; // race
    Atomics.notify(b, GEN);
  }
  return g;
}
const leave = (b, g) => {
  while (Atomics.load(b, GEN) === g) Atomics.wait(b, GEN, g); // race
};

const { main, joined, i, at, step, b } = workers(import.meta.url, 2, () => ({
  b: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  const g = at(i, () => arrive(b));
  if (i === 0) step(2); // worker 1 has arrived (step 1): worker 0 reads the generation after the plain store
  leave(b, g);
}
