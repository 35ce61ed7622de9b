// expect: no race
// idiom: Mutex from goldilocks/sync guarding read-modify-write of a Float64 element (withLock).
import { Mutex } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, i, at, mutex, f } = workers(import.meta.url, 2, () => ({
  mutex: new Mutex('total').handle,
  f: new Float64Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
  if (f[0] !== 2.5) throw new Error(`total ${f[0]}`);
} else {
  const m = Mutex.from(mutex);
  at(i, () =>
    m.withLock(() => {
      f[0] += 1.25;
    }),
  );
}
