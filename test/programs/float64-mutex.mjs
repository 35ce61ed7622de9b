// expect: no race
// idiom: Mutex from goldilocks/sync guarding read-modify-write of a Float64 element (withLock).
import { isMainThread, workerData } from 'node:worker_threads';
import { Mutex } from 'goldilocks/sync';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const mutex = new Mutex('total').handle;
  const f = new Float64Array(new SharedArrayBuffer(8));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, mutex, f, i })),
  );
  if (f[0] !== 2.5) throw new Error(`total ${f[0]}`);
} else {
  const { at } = schedule(workerData.sched);
  const { f, i } = workerData;
  const m = Mutex.from(workerData.mutex);
  at(i, () =>
    m.withLock(() => {
      f[0] += 1.25;
    }),
  );
}
