// expect: race
// idiom: mixed-size atomics: a BigInt64 Atomics.store of bytes 8-15 against an Int32 Atomics.load of bytes 12-15.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(16) }));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => Atomics.store(new BigInt64Array(sab), 1, 5n << 32n)); // race
  } else {
    const high = at(1, () => Atomics.load(new Int32Array(sab), 3)); // race
    if (high !== 5) throw new Error(`saw ${high}`);
  }
}
