// expect: no race
// idiom: unordered accesses to adjacent but disjoint bytes never race: plain bytes 0 and 1, atomic Int16 at 2-3 vs Int32 at 4-7.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(8) }));
if (main) {
  await joined;
  const b = new Uint8Array(sab);
  if (b[0] !== 1 || b[1] !== 2 || b[2] !== 3 || b[4] !== 4) throw new Error(`bytes ${b}`);
} else {
  const bytes = new Uint8Array(sab);
  if (i === 0) {
    at(0, () => {
      bytes[0] = 1;
      Atomics.store(new Int16Array(sab), 1, 3);
    });
  } else {
    at(1, () => {
      bytes[1] = 2;
      Atomics.store(new Int32Array(sab), 1, 4);
    });
  }
}
