// expect: no race
// idiom: Float64 values published safely: plain Float64 writes, then Atomics.store of an Int32 flag; the reader Atomics.loads it first.
import { workers } from './sched.mjs';

const { main, joined, i, at, flag, f } = workers(import.meta.url, 2, () => ({
  flag: new Int32Array(new SharedArrayBuffer(4)),
  f: new Float64Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      f[0] = Math.PI;
      f[1] = -Math.E;
      Atomics.store(flag, 0, 1);
    });
  } else {
    const sum = at(1, () => (Atomics.load(flag, 0) === 1 ? f[0] + f[1] : NaN));
    if (sum !== Math.PI - Math.E) throw new Error(`sum ${sum}`);
  }
}
