// Memory benchmark (bench/memory.ts): N lock/unlock pairs of one Mutex of goldilocks/sync, each around plain
// accesses to a shared counter, in two workers. Every pair appends two cells to the synchronization event list;
// the counter's Infos change owner at every turn (race-free: always under the lock). Argument: N (total pairs,
// split between the two workers).
//   goldilocks run bench/memory/mutex-loop.mjs 1000000
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { Mutex } from 'goldilocks/sync';

if (isMainThread) {
  const n = Number(process.argv[2] ?? 1_000_000);
  const shared = new Int32Array(new SharedArrayBuffer(64));
  shared[2] = 7; // a main-thread access that stays in the shadow state for the whole run
  const lock = new Mutex('counter').handle;
  const workers = [0, 1].map(
    () => new Worker(new URL(import.meta.url), { workerData: { shared, lock, n: n / 2 } }),
  );
  await Promise.all(workers.map((w) => new Promise((resolve) => w.on('exit', resolve))));
  if (shared[0] !== n) throw new Error(`counter ${shared[0]} !== ${n}`);
} else {
  const { shared, n } = workerData;
  const lock = Mutex.from(workerData.lock);
  for (let i = 0; i < n; i++) {
    lock.lock();
    shared[0] = shared[0] + 1;
    lock.unlock();
  }
}
