// expect: race
// idiom: goldilocks/stm: a plain write and a later transactional read of it in another worker, with no synchronization between them: the race is found at the commit
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, data } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  data: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  at(0, () => (data[0] = 1)); // race
} else {
  const s = STM.from(stm);
  at(1, () => s.atomic((tx) => tx.read(data, 0))); // race
}
