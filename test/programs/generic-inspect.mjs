// expect: race
// idiom: race through util.inspect of a view (as console.log formats it): b's inspect reads the element a wrote.

import { inspect } from 'node:util';
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Int16Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[1] = -3; // race
    });
  } else {
    const got = at(1, () => inspect({ view: shared })); // race
    if (got !== '{ view: Int16Array(4) [ 0, -3, 0, 0 ] }') throw new Error(`got ${got}`);
  }
}
