// expect: race
// idiom: race on one byte of memory otherwise accessed a whole 64-byte page at a time (the shadow keeps such a page as one until an element access splits it): a copies into two pages with Buffer#copy and hands them to b, which fills them; a's later element write is unordered with b's fill.
import { workers } from './sched.mjs';

const { main, joined, i, at, bytes, flag } = workers(import.meta.url, 2, () => ({
  bytes: new Uint8Array(new SharedArrayBuffer(192)),
  flag: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  const buf = Buffer.from(bytes.buffer);
  if (i === 0) {
    at(0, () => {
      Buffer.alloc(128, 1).copy(buf, 64); // whole pages 1 and 2
      Atomics.store(flag, 0, 1);
    });
    at(2, () => {
      bytes[100] = 9; // race
    });
  } else {
    at(1, () => {
      while (Atomics.load(flag, 0) !== 1);
      buf.fill(2, 64, 192); // race
    });
  }
}
