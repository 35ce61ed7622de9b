// expect: no race
// idiom: atomics through different views (Int32/Uint32, Int16/Uint16, offset views) over EQUAL byte ranges never race.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sab = new SharedArrayBuffer(12);
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sab, i })),
  );
  if (new Int32Array(sab)[1] !== 6 || new Uint16Array(sab)[4] !== 0xffff) throw new Error('lost an update');
} else {
  const { at } = schedule(workerData.sched);
  const { sab, i } = workerData;
  if (i === 0) {
    at(0, () => {
      Atomics.store(new Int32Array(sab), 1, 5);
      Atomics.store(new Int16Array(sab, 8), 0, -1);
    });
  } else {
    at(1, () => {
      Atomics.add(new Uint32Array(sab, 4, 1), 0, 1);
      if (Atomics.load(new Uint16Array(sab, 8), 0) !== 0xffff) throw new Error('not 0xffff');
    });
  }
}
