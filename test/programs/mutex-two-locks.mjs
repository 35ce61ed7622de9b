// expect: race
// idiom: Mutex from goldilocks/sync, but each worker guards the shared counter with a DIFFERENT mutex.
import { isMainThread, workerData } from 'node:worker_threads';
import { Mutex } from 'goldilocks/sync';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const mutexes = [new Mutex('m0').handle, new Mutex('m1').handle];
  const counter = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, mutex: mutexes[i], counter, i })),
  );
  if (counter[0] !== 3) throw new Error(`counter ${counter[0]}`);
} else {
  const { at } = schedule(workerData.sched);
  const { counter, i } = workerData;
  const m = Mutex.from(workerData.mutex);
  if (i === 0) {
    at(0, () => {
      m.lock();
      counter[0] = 1; // race
      m.unlock();
    });
  } else {
    at(1, () => {
      m.lock();
      counter[0] = counter[0] + 2; // race
      m.unlock();
    });
  }
}
