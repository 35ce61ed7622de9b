// expect: no race
// idiom: goldilocks/stm: transactions on one array and a Mutex on another, in both workers (disjoint data)
// eraser: silent (the transactional accesses hold its transaction pseudo-lock TL, the others a Mutex)
import { STM } from 'goldilocks/stm';
import { Mutex } from 'goldilocks/sync';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, mutex, txData, lockData } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  mutex: new Mutex('data').handle,
  txData: new Int32Array(new SharedArrayBuffer(16)),
  lockData: new Int32Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  const s = STM.from(stm);
  const m = Mutex.from(mutex);
  at(i, () => {
    s.atomic((tx) => tx.write(txData, 0, tx.read(txData, 0) + 1));
    m.withLock(() => (lockData[0] += 1));
  });
}
