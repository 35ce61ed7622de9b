// expect: race
// idiom: Mutex from goldilocks/sync, but each worker guards the shared counter with a DIFFERENT mutex.
import { Mutex } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, i, at, mutexes, counter } = workers(import.meta.url, 2, () => ({
  mutexes: [new Mutex('m0').handle, new Mutex('m1').handle],
  counter: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
  if (counter[0] !== 3) throw new Error(`counter ${counter[0]}`);
} else {
  const m = Mutex.from(mutexes[i]);
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
