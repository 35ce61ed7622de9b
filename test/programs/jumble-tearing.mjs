// expect: race
// idiom: a racy Float64 read after two plain writes of another worker: under adversarial memory (tearing, PLDI'10 §5.2) it may combine the 4-byte halves of two visible writes, as ECMA-262 allows for Float64 (IsNoTearConfiguration is false).
import { workers } from './sched.mjs';

const { main, joined, i, at, f } = workers(import.meta.url, 2, () => ({
  f: new Float64Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  const sync = new Int32Array(new SharedArrayBuffer(4));
  at(0, () => {
    f[0] = 1.1;
    Atomics.store(sync, 0, 1); // a synchronization operation of its own: the next write is in a new epoch
    f[0] = 2.2; // race
  });
} else {
  at(1, () => {
    const v = f[0]; // race
    if (process.env.JUMBLE_PRINT) console.log(`read ${v}`);
  });
}
