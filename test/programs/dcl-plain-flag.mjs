// expect: race
// idiom: double-checked initialization with a plain flag: the fast-path read of the flag races with its write under the lock.
import { workers } from './sched.mjs';

const [STATE, LOCK, READY] = [0, 1, 1];
function config(w, cfg) {
  const ready = w[STATE] === READY; // race
  if (!ready) {
    while (Atomics.compareExchange(w, LOCK, 0, 1) !== 0);
    if (w[STATE] !== READY) {
      cfg[0] = 3.5;
      cfg[1] = 0.25;
      w[STATE] = READY; // race
    }
    Atomics.store(w, LOCK, 0);
  }
  return cfg[0] + cfg[1];
}

const { main, joined, i, at, w, cfg } = workers(import.meta.url, 2, () => ({
  w: new Int32Array(new SharedArrayBuffer(8)),
  cfg: new Float64Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  const v = at(i, () => config(w, cfg)); // worker 0 initializes, worker 1 takes the (unsynchronized) fast path
  if (v !== 3.75) throw new Error(`config ${v}`);
}
