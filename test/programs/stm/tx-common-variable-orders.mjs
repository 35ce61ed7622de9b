// expect: no race
// idiom: goldilocks/stm: two transactions that touch a common variable are ordered, and so are the plain accesses before and after them
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, plain, a } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  plain: new Int32Array(new SharedArrayBuffer(8)),
  a: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  const s = STM.from(stm);
  if (i === 0)
    at(0, () => {
      plain[0] = 1;
      s.atomic((tx) => tx.write(a, 0, tx.read(a, 0) + 1));
    });
  else
    at(1, () => {
      s.atomic((tx) => tx.write(a, 0, tx.read(a, 0) + 1));
      if (plain[0] !== 1) throw new Error('not ordered');
    });
}
