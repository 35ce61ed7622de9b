// expect: no race
// idiom: ownership of two 64-byte pages handed back and forth with Atomics: whole-page copies and fills (kept as one record per page), element accesses that split a page, a whole-page write that merges it again.
import { isMainThread, workerData } from 'node:worker_threads';
import { runWorkers, schedule } from './sched.mjs';

if (isMainThread) {
  const s = schedule();
  const bytes = new Uint8Array(new SharedArrayBuffer(128));
  const turn = new Int32Array(new SharedArrayBuffer(4));
  await runWorkers(
    import.meta.url,
    [0, 1].map((i) => ({ sched: s.buffer, bytes, turn, i })),
  );
} else {
  const { at } = schedule(workerData.sched);
  const { bytes, turn, i } = workerData;
  const buf = Buffer.from(bytes.buffer);
  const wait = (n) => {
    while (Atomics.load(turn, 0) !== n);
  };
  if (i === 0) {
    at(0, () => {
      buf.fill(1); // both pages whole
      Atomics.store(turn, 0, 1);
    });
    at(2, () => {
      wait(2);
      if (buf.toString('latin1', 0, 128) !== '\x01'.repeat(3) + '\x07' + '\x01'.repeat(124))
        throw new Error('read');
      Buffer.alloc(128, 3).copy(buf); // merges the split page
      Atomics.store(turn, 0, 3);
    });
  } else {
    at(1, () => {
      wait(1);
      bytes[3] = 7; // splits page 0
      Atomics.store(turn, 0, 2);
    });
    at(3, () => {
      wait(3);
      if (bytes[3] !== 3 || bytes[70] !== 3) throw new Error(`saw ${bytes[3]} ${bytes[70]}`);
    });
  }
}
