// Memory benchmark (bench/memory.ts): N Atomics operations, each followed by plain accesses, in two workers that
// share an Int32Array. Every Atomics.add appends a cell to the synchronization event list; the plain accesses
// keep Infos alive (race-free: each worker reads and writes its own element, and reads the counter only through
// Atomics). Argument: N (total Atomics operations, split between the two workers).
//   goldilocks run bench/memory/atomics-loop.mjs 1000000
import { isMainThread, Worker, workerData } from 'node:worker_threads';

if (isMainThread) {
  const n = Number(process.argv[2] ?? 1_000_000);
  const shared = new Int32Array(new SharedArrayBuffer(64));
  shared[2] = 7; // a main-thread access that stays in the shadow state for the whole run
  const workers = [0, 1].map(
    (k) => new Worker(new URL(import.meta.url), { workerData: { shared, k, n: n / 2 } }),
  );
  await Promise.all(workers.map((w) => new Promise((resolve) => w.on('exit', resolve))));
  if (Atomics.load(shared, 0) !== n) throw new Error(`counter ${Atomics.load(shared, 0)} !== ${n}`);
} else {
  const { shared, k, n } = workerData;
  const mine = 4 + k * 4; // own element, on its own 8-byte word
  for (let i = 0; i < n; i++) {
    Atomics.add(shared, 0, 1);
    shared[mine] = shared[mine] + 1;
  }
}
