// Example 4 (Figure 4) of the PLDI'07 paper with a real software transaction (goldilocks/stm): thread 1 transfers
// 42 from savings to checking in a transaction, thread 2 withdraws 42 from checking holding the account's Mutex.
// Each is synchronized, but not with the other: the transaction and the lock do not order each other (§5.3), the
// accesses to checking.bal race, and Goldilocks throws DataRaceException in the withdrawing worker.
//   npx goldilocks run examples/stm-account.mjs
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { STM } from 'goldilocks/stm';
import { Mutex } from 'goldilocks/sync';

// Account balances (double bal) in shared memory: [savings.bal, checking.bal].
const SAVINGS = 0;
const CHECKING = 1;

if (isMainThread) {
  const bal = new Float64Array(new SharedArrayBuffer(16));
  bal[SAVINGS] = 100;
  bal[CHECKING] = 100;
  const data = { bal, stm: new STM().handle, checking: new Mutex('checking').handle };
  for (const role of ['transfer', 'withdraw']) {
    const w = new Worker(new URL(import.meta.url), { workerData: { ...data, role } });
    w.on('error', (e) => console.log(`[${role}] stopped by ${e.name}: ${e.message}`));
  }
} else {
  const { bal, role } = workerData;
  if (role === 'transfer') {
    STM.from(workerData.stm).atomic((tx) => {
      tx.write(bal, SAVINGS, tx.read(bal, SAVINGS) - 42); // savings.bal -= 42
      tx.write(bal, CHECKING, tx.read(bal, CHECKING) + 42); // checking.bal += 42
    });
  } else {
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the teller comes second
    Mutex.from(workerData.checking).withLock(() => {
      bal[CHECKING] -= 42; // checking.withdraw(42)
    });
  }
}
