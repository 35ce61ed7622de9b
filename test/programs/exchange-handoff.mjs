// expect: no race
// idiom: hand-off by Atomics.exchange on both sides: the taker's exchange reads the giver's exchange.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const box = new Int32Array(new SharedArrayBuffer(4));
  const data = new Uint8Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, box, data, i })),
  );
  if (data[0] !== 0) throw new Error(`data[0] ${data[0]}`);
} else {
  const { at } = schedule(workerData.sched);
  const { box, data, i } = workerData;
  if (i === 0) {
    at(0, () => {
      data[0] = 200;
      Atomics.exchange(box, 0, 1);
    });
  } else {
    at(1, () => {
      if (Atomics.exchange(box, 0, 0) !== 1 || data[0] !== 200) throw new Error('nothing handed off');
      data[0] = 0;
    });
  }
}
