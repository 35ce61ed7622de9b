// expect: no race
// idiom: goldilocks/stm: ownership of plain data handed through a transactional flag, then through a Mutex
import { STM } from 'goldilocks/stm';
import { Mutex } from 'goldilocks/sync';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, mutex, flag, data } = workers(import.meta.url, 3, () => ({
  stm: new STM().handle,
  mutex: new Mutex('data').handle,
  flag: new Int32Array(new SharedArrayBuffer(8)),
  data: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else {
  const s = STM.from(stm);
  const m = Mutex.from(mutex);
  if (i === 0)
    at(0, () => {
      data[0] = 1;
      s.atomic((tx) => tx.write(flag, 0, 1));
    });
  else if (i === 1)
    at(1, () => {
      if (s.atomic((tx) => tx.read(flag, 0)) !== 1) throw new Error('not handed over');
      data[0] += 1;
      m.withLock(() => {});
    });
  else
    at(2, () =>
      m.withLock(() => {
        if (data[0] !== 2) throw new Error(`data ${data[0]}`);
      }),
    );
}
