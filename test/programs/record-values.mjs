// expect: race
// idiom: two plain writes of one worker and an unordered plain read of another (with values recorded, `check --adversarial` sees the three values 0, 1, 2 visible at the read); a NaN with a payload keeps its bits.
import { workers } from './sched.mjs';

const { main, joined, i, at, x, f } = workers(import.meta.url, 2, () => ({
  x: new Int32Array(new SharedArrayBuffer(8)),
  f: new Float64Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  const sync = new Int32Array(new SharedArrayBuffer(4));
  at(0, () => {
    x[0] = 1;
    Atomics.store(sync, 0, 1); // a synchronization operation of its own: the next write is in a new epoch
    x[0] = 2; // race
    f[0] = new Float64Array(new Uint32Array([1, 0x7ff00000]).buffer)[0]; // a NaN with payload 1
  });
} else {
  at(1, () => {
    const v = x[0]; // race
    const n = f[0];
    if (v !== 2 || !Number.isNaN(n)) throw new Error(`read ${v} ${n}`);
  });
}
