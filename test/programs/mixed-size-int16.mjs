// expect: race
// idiom: mixed-size atomics: an Int32 Atomics.store and an Int16 Atomics.load of its upper half overlap without being equal.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(4) }));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => Atomics.store(new Int32Array(sab), 0, 0x70001)); // race
  } else {
    const half = at(1, () => Atomics.load(new Int16Array(sab), 1)); // race
    if (half !== 7) throw new Error(`saw ${half}`); // little-endian: bytes 2-3 hold the upper half
  }
}
