// expect: no race
// idiom: goldilocks/stm: a plain read of transactional data by the main thread after joining the worker that committed it
import { STM } from 'goldilocks/stm';
import { workers } from '../sched.mjs';

const { main, joined, at, stm, data } = workers(import.meta.url, 1, () => ({
  stm: new STM().handle,
  data: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
  if (data[0] !== 5) throw new Error(`data ${data[0]}`);
} else {
  const s = STM.from(stm);
  at(0, () => s.atomic((tx) => tx.write(data, 0, 5)));
}
