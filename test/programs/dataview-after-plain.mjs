// expect: race
// idiom: DataView over shared memory after one over memory that is not shared (the runtime keeps the last plain one): every access of the shared one is still checked, its first one too.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const sab = new SharedArrayBuffer(16);
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, sab, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { sab, i } = workerData;
  const local = new DataView(new ArrayBuffer(8));
  local.setInt32(0, 7);
  if (local.getInt32(0) !== 7) throw new Error('local');
  const dv = new DataView(sab);
  dv.setInt32(8 + 4 * i, i); // bytes of this worker's own
  if (i === 0) {
    at(0, () => dv.setInt32(0, 1)); // race
  } else {
    local.setInt32(4, 8);
    const v = at(1, () => dv.getInt32(0)); // race
    if (v !== 1) throw new Error(`read ${v}`);
  }
}
