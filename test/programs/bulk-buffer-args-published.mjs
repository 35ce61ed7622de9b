// expect: no race
// idiom: Buffer methods reading a shared argument after it was published (Atomics.store, then Atomics.load): local.fill(shared), local.equals(shared), local.compare(shared), local.indexOf(shared) on non-shared receivers.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const sab = new SharedArrayBuffer(4);
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, flag, sab, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { flag, sab, i } = workerData;
  const shared = Buffer.from(sab);
  if (i === 0) {
    at(0, () => {
      shared.write('abcd', 'latin1');
      Atomics.store(flag, 0, 1);
    });
  } else {
    const found = at(1, () => {
      if (Atomics.load(flag, 0) !== 1) return 'not published';
      const local = Buffer.alloc(8);
      local.fill(shared);
      return [
        local.toString('latin1'),
        local.equals(shared),
        local.compare(shared),
        local.indexOf(shared, 1),
      ].join();
    });
    if (found !== 'abcdabcd,false,1,4') throw new Error(`found ${found}`);
  }
}
