// expect: no race
// idiom: goldilocks/stm: a read-only transaction that reads what an earlier transaction wrote is ordered after it (commit(R, ∅) still applies rule 9)
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, plain, flag } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  plain: new Int32Array(new SharedArrayBuffer(8)),
  flag: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  const s = STM.from(stm);
  if (i === 0)
    at(0, () => {
      plain[0] = 3;
      s.atomic((tx) => tx.write(flag, 0, 1));
    });
  else
    at(1, () => {
      if (s.atomic((tx) => tx.read(flag, 0)) === 1) plain[0] += 1;
    });
}
