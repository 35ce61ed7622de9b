// expect: no race
// idiom: goldilocks/stm: two workers update the same counters only in transactions (two transactional accesses never race)
// eraser: silent (the transactional accesses hold its transaction pseudo-lock TL)
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, counters } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  counters: new Float64Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
  const s = STM.from(stm);
  const total = s.atomic((tx) => tx.read(counters, 0) + tx.read(counters, 1));
  if (total !== 60) throw new Error(`total ${total}`);
} else {
  const s = STM.from(stm);
  for (let k = 0; k < 3; k++)
    at(2 * k + i, () =>
      s.atomic((tx) => {
        tx.write(counters, 0, tx.read(counters, 0) + 1);
        tx.write(counters, 1, tx.read(counters, 1) + 9);
      }),
    );
}
