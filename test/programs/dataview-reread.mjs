// expect: no race
// idiom: DataView over shared memory: each worker reads and writes its own record's fields again and again within an epoch and across epochs (an Atomics.add between passes), and reads the other's record once an Atomics count says the other is done; the main thread sums after the joins.
import { workers } from './sched.mjs';

const { main, joined, i, sab, count } = workers(import.meta.url, 2, () => ({
  sab: new SharedArrayBuffer(32),
  count: new SharedArrayBuffer(8),
}));
if (main) {
  await joined;
  const dv = new DataView(sab);
  const sum = dv.getFloat64(0, true) + dv.getFloat64(16, true) + dv.getInt32(8, true) + dv.getInt32(24, true);
  if (sum !== 2 * (3 * 1.5 + 3)) throw new Error(`sum ${sum}`);
} else {
  const dv = new DataView(sab);
  const passes = new Int32Array(count);
  const at0 = 16 * i;
  for (let p = 0; p < 3; p++) {
    Atomics.add(passes, i, 1);
    dv.setFloat64(at0, dv.getFloat64(at0, true) + 1.5, true);
    if (dv.getFloat64(at0, true) !== 1.5 * (p + 1)) throw new Error('value');
    dv.setInt32(at0 + 8, dv.getInt32(at0 + 8, true) + 1, true);
    if (dv.getInt32(at0 + 8, true) !== p + 1 || dv.getUint16(at0 + 8, true) !== p + 1)
      throw new Error('count');
  }
  // done: the count's fourth add publishes the record, and the other's fourth is awaited before reading its record
  Atomics.add(passes, i, 1);
  while (Atomics.load(passes, 1 - i) < 4);
  if (dv.getFloat64(16 * (1 - i), true) !== 4.5) throw new Error('other record');
}
