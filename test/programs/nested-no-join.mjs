// expect: race
// idiom: nested workers where the middle worker unrefs its child and exits without waiting for it (a referenced child would keep the middle alive until its exit event, a join): the grandchild's write is unordered.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Int32Array(new SharedArrayBuffer(4));
  await join(spawn(import.meta.url, { sched: s.buffer, data, depth: 1 }));
  const seen = s.at(2, () => data[0]); // race
  if (seen !== 8) throw new Error(`saw ${seen}`);
} else if (workerData.depth === 1) {
  const { at } = schedule(workerData.sched);
  spawn(import.meta.url, { ...workerData, depth: 2 }).unref(); // never joined, and not waited for: unref lets this thread end first
  at(1, () => {}); // invisible: the child has written, but nothing orders that before this exit
} else {
  const { at } = schedule(workerData.sched);
  const { data } = workerData;
  at(0, () => {
    data[0] = 8; // race
  });
}
