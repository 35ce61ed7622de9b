// expect: race
// idiom: nested workers: the middle worker exits without joining its child, whose write is then unordered with main's read after joining only the middle.
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
  // unref: this thread ends when its own code is done, and its end terminates the child (blocked below), so the
  // child's 'exit' is never emitted here: no join edge, whatever the timing
  spawn(import.meta.url, { ...workerData, depth: 2 }).unref();
  at(1, () => {}); // invisible: the child has written, but nothing orders that before this exit
} else {
  const { at, sleep } = schedule(workerData.sched);
  const { data } = workerData;
  at(0, () => {
    data[0] = 8; // race
  });
  sleep(Infinity); // kept alive until the middle worker's exit terminates it
}
