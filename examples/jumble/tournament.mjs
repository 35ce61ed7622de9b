// LUFact/MolDyn's TournamentBarrier of Jumble's evaluation (Java Grande, PLDI 2010 §6.1) for 2 workers: worker 1
// sets its plain flag IsDone[1] to this episode's sense and spins until IsDone[0] has it too; worker 0 spins on
// IsDone[1], then sets IsDone[0]. Between episodes each worker writes its own partial sum and, after the barrier,
// reads the other's. The flags alternate between 0 and 1, so a stale read may return the sense of an earlier
// episode (legal: plain accesses create no happens-before, ECMA-262 "Memory Model") and let a worker through the
// barrier early, or a stale partial sum may be read: the totals are wrong and the validation fails — destructive.
//   node examples/jumble/tournament.mjs            → tournament total 900
import { workers } from '../../test/programs/sched.mjs';

const EPISODES = 6;
const { main, joined, i, isDone, partial, totals } = workers(import.meta.url, 2, () => ({
  isDone: new Uint8Array(new SharedArrayBuffer(2)), // boolean IsDone[]
  partial: new Int32Array(new SharedArrayBuffer(8)), // each worker's partial sum of the episode
  totals: new Int32Array(new SharedArrayBuffer(8)), // each worker's running total
}));

/** TournamentBarrier.DoBarrier(myid) for 2 threads. */
function barrier(me) {
  const done = isDone[me] ^ 1;
  if (me === 0) while (isDone[1] !== done);
  isDone[me] = done;
  while (isDone[0] !== done);
}

if (main) {
  await joined;
  const expected = Array.from({ length: EPISODES }, (_, e) => 20 * e + 25).reduce((a, b) => a + b);
  if (totals[0] !== expected || totals[1] !== expected) throw new Error(`totals ${totals} ≠ ${expected}`);
  console.log(`tournament total ${totals[0] + totals[1]}`);
} else {
  for (let e = 0; e < EPISODES; e++) {
    partial[i] = 10 * e + 20 + 10 * i; // this episode's work: 10e + 20 and 10e + 30
    barrier(i);
    totals[i] += partial[0] + partial[1] - 25; // ... uses both results
    barrier(i); // nobody overwrites a partial sum before both have read it
  }
}
