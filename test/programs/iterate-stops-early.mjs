// expect: no race
// idiom: iteration that stops early (for…of with break, array destructuring) reads only the elements before the stop; a concurrent write to a later byte of the same word is no race.
import { isMainThread, workerData } from 'node:worker_threads';
import { join, schedule, spawn } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const data = new Uint8Array(new SharedArrayBuffer(8));
  data[1] = 7;
  const w = spawn(import.meta.url, { sched: s.buffer, data });
  const seen = s.at(1, () => {
    const [first] = data; // reads element 0 only
    let at = -1;
    for (const [k, x] of data.entries()) {
      if (x === 7) {
        at = k;
        break;
      }
    }
    return [first, at];
  });
  await join(w);
  if (seen.join() !== '0,1') throw new Error(`saw ${seen}`);
} else {
  const { at } = schedule(workerData.sched);
  at(0, () => {
    workerData.data[2] = 9; // never read by main before the join
  });
}
