// expect: race
// idiom: goldilocks/stm: a transactional transfer and a Mutex-protected withdrawal of the same balance (PLDI'07 §5.3 Example 4): the lock does not order the transaction
import { STM } from 'goldilocks/stm';
import { Mutex } from 'goldilocks/sync';
import { workers } from '../sched.mjs';

const { main, joined, i, at, stm, mutex, balance } = workers(import.meta.url, 2, () => ({
  stm: new STM().handle,
  mutex: new Mutex('account').handle,
  balance: new Int32Array(new SharedArrayBuffer(8)),
}));
if (main) {
  await joined;
} else if (i === 0) {
  const s = STM.from(stm);
  const transfer = (tx) => {
    tx.write(balance, 0, tx.read(balance, 0) + 42);
    tx.write(balance, 1, tx.read(balance, 1) - 42);
  };
  at(0, () => s.atomic(transfer)); // race
} else {
  const m = Mutex.from(mutex);
  at(1, () => m.withLock(() => (balance[0] -= 10))); // race
}
