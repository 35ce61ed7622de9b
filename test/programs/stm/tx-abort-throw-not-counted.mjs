// expect: no race
// idiom: goldilocks/stm: a transaction that throws writes nothing, so its write is never checked against a later unsynchronized plain write
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, data } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  data: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  const s = STM.from(stm);
  at(0, () => {
    try {
      s.atomic((tx) => {
        tx.write(data, 0, 1);
        throw new Error('abort');
      });
    } catch {}
  });
} else {
  at(1, () => (data[0] = 2));
}
