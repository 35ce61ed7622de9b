// expect: no race
// idiom: ownership of two 64-byte pages handed back and forth with Atomics: whole-page copies and fills (kept as one record per page), element accesses that split a page, a whole-page write that merges it again.
import { workers } from './sched.mjs';

const { main, joined, i, at, bytes, turn } = workers(import.meta.url, 2, () => ({
  bytes: new Uint8Array(new SharedArrayBuffer(128)),
  turn: new Int32Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
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
      if (buf.toString('latin1', 0, 128) !== `${'\x01'.repeat(3)}\x07${'\x01'.repeat(124)}`)
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
