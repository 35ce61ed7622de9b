// expect: race
// idiom: goldilocks/stm: transactions on disjoint variables do not order each other (the STM's own clock and records are not synchronization), so the plain accesses around them race
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, plain, a, b } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  plain: new Int32Array(new SharedArrayBuffer(8)),
  a: new Int32Array(new SharedArrayBuffer(8)),
  b: new Int32Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  const s = STM.from(stm);
  if (i === 0)
    at(0, () => {
      plain[0] = 1; // race
      s.atomic((tx) => tx.write(a, 0, tx.read(a, 0) + 1));
    });
  else
    at(1, () => {
      s.atomic((tx) => tx.write(b, 0, tx.read(b, 0) + 1));
      return plain[0]; // race
    });
}
