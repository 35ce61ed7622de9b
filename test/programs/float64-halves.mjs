// expect: race
// idiom: Float64 tearing seen through an Int32 view: a plain Float64 write against an Atomics.load of its high half.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(8) }));
if (main) {
  await joined;
} else {
  if (i === 0) {
    const f = new Float64Array(sab);
    at(0, () => {
      f[0] = 1; // race
    });
  } else {
    const high = at(1, () => Atomics.load(new Int32Array(sab), 1)); // race
    if (high !== 0x3ff00000) throw new Error(`high half ${high.toString(16)}`);
  }
}
