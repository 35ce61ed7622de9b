// expect: race
// idiom: DataView over shared memory after one over memory that is not shared (the runtime keeps the last plain one): every access of the shared one is still checked, its first one too.
import { workers } from './sched.mjs';

const { main, joined, i, at, sab } = workers(import.meta.url, 2, () => ({ sab: new SharedArrayBuffer(16) }));
if (main) {
  await joined;
} else {
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
