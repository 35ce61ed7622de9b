// expect: race
// idiom: hand-made barrier whose last arrival bumps the generation with a plain store: the waiter's Atomics.load races with it.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

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

if (isMainThread) {
  const s = schedule();
  const b = new Int32Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, b, i })),
  );
} else {
  const { at, step } = schedule(workerData.sched);
  const { b, i } = workerData;
  const g = at(i, () => arrive(b));
  if (i === 0) step(2); // worker 1 has arrived (step 1): worker 0 reads the generation after the plain store
  leave(b, g);
}
