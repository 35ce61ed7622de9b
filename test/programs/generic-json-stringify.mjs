// expect: race
// idiom: race through JSON.stringify of a view nested in an object: b's JSON.stringify reads the element a wrote.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const shared = new Uint8Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, shared, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { shared, i } = workerData;
  if (i === 0) {
    at(0, () => {
      shared[5] = 200; // race
    });
  } else {
    const got = at(1, () => JSON.stringify({ id: 1, data: shared })); // race
    if (got !== '{"id":1,"data":{"0":0,"1":0,"2":0,"3":0,"4":0,"5":200,"6":0,"7":0}}')
      throw new Error(`got ${got}`);
  }
}
