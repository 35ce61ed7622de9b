// expect: no race
// idiom: goldilocks/stm: nested atomic calls flatten into the outer transaction; its accesses are all transactional, one commit
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, data } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  data: new Int32Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
  if (data[0] !== 2 || data[2] !== 2) throw new Error(`data ${data}`);
} else {
  const s = STM.from(stm);
  const inc = (k) => s.atomic((tx) => tx.write(data, k, tx.read(data, k) + 1));
  at(i, () =>
    s.atomic(() => {
      inc(0);
      inc(2);
    }),
  );
}
