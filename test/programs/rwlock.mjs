// expect: no race
// idiom: ReadWriteLock from goldilocks/sync: a writer, two readers holding read locks at once, then the writer waits for the last reader.
import { ReadWriteLock } from 'goldilocks/sync';
import { workers } from './sched.mjs';

const { main, joined, who, at, step, next, handle, table } = workers(
  import.meta.url,
  ['w', 'r1', 'r2'],
  () => ({
    handle: new ReadWriteLock('table').handle,
    table: new Int32Array(new SharedArrayBuffer(8)),
  }),
);
if (main) {
  await joined;
  if (table[0] !== 3) throw new Error(`table[0] ${table[0]}`);
} else {
  const rw = ReadWriteLock.from(handle);
  const sum = () => table[0] + table[1];
  if (who === 'w') {
    const write = (v) => {
      rw.writeLock();
      table[0] = v;
      table[1] = v;
      rw.writeUnlock();
    };
    at(0, () => write(1));
    step(4);
    if (rw.tryWriteLock()) throw new Error('write-locked while r1 reads');
    next();
    write(3); // sleeps until r1's read unlock at step 5
  } else if (who === 'r1') {
    at(1, () => rw.readLock());
    const seen = at(3, () => sum()); // r2 holds its read lock too
    at(5, () => rw.readUnlock());
    if (seen !== 2) throw new Error(`r1 saw ${seen}`);
  } else {
    const seen = at(2, () => {
      rw.readLock();
      const v = sum();
      rw.readUnlock();
      return v;
    });
    if (seen !== 2) throw new Error(`r2 saw ${seen}`);
  }
}
