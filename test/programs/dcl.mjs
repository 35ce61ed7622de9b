// expect: no race
// idiom: double-checked initialization: the fast path reads the state with Atomics.load, the slow path initializes under a compareExchange lock and publishes with Atomics.store.
import { workers } from './sched.mjs';

const [STATE, LOCK, READY] = [0, 1, 1];
function config(w, cfg) {
  if (Atomics.load(w, STATE) !== READY) {
    while (Atomics.compareExchange(w, LOCK, 0, 1) !== 0);
    if (Atomics.load(w, STATE) !== READY) {
      cfg[0] = 3.5;
      cfg[1] = 0.25;
      Atomics.store(w, STATE, READY);
    }
    Atomics.store(w, LOCK, 0);
  }
  return cfg[0] + cfg[1];
}

const { main, joined, i, at, w, cfg } = workers(import.meta.url, 3, () => ({
  w: new Int32Array(new SharedArrayBuffer(8)),
  cfg: new Float64Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  const v = at(i, () => config(w, cfg)); // worker 0 initializes, 1 and 2 take the fast path
  if (v !== 3.75) throw new Error(`config ${v}`);
}
