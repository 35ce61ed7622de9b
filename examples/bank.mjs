// Example 4 (Figure 4) of the PLDI'07 paper in JavaScript: thread 1 transfers 42 from savings to checking inside
// an "atomic" block (here a transfer lock standing in for a transaction implementation), thread 2 withdraws 42
// from checking with the account's own lock. Both are synchronized, but not with each other: the accesses to
// checking.bal race, and Goldilocks throws DataRaceException in the thread that comes second.
//   npx goldilocks run examples/bank.mjs
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { Mutex } from 'goldilocks/sync';

// Account balances (double bal) in shared memory: [savings.bal, checking.bal].
const SAVINGS = 0;
const CHECKING = 1;

if (isMainThread) {
  const bal = new Float64Array(new SharedArrayBuffer(16));
  bal[SAVINGS] = 100;
  bal[CHECKING] = 100;
  const locks = { savings: new Mutex('savings').handle, checking: new Mutex('checking').handle };
  const atomicBlock = new Mutex('atomic').handle;
  for (const role of ['transfer', 'withdraw']) {
    const w = new Worker(new URL(import.meta.url), { workerData: { bal, locks, atomicBlock, role } });
    w.on('error', (e) => console.log(`[${role}] stopped by ${e.name}: ${e.message}`));
  }
} else {
  const { bal, role } = workerData;
  if (role === 'transfer') {
    const atomic = Mutex.from(workerData.atomicBlock);
    atomic.withLock(() => {
      bal[SAVINGS] -= 42; // savings.bal -= 42
      bal[CHECKING] += 42; // checking.bal += 42
    });
  } else {
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the teller comes later (whichever comes second gets the exception)
    const checking = Mutex.from(workerData.locks.checking);
    checking.withLock(() => {
      bal[CHECKING] -= 42; // checking.withdraw(42)
    });
  }
}
