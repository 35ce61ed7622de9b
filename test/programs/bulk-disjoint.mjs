// expect: no race
// idiom: unordered bulk operations on disjoint halves of one buffer (fill, copyWithin, set, slice, Buffer, TextDecoder) never race.
import { workers } from './sched.mjs';

const { main, joined, i, at, bytes } = workers(import.meta.url, 2, () => ({
  bytes: new Uint8Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
  if (Buffer.from(bytes.buffer).toString('latin1') !== 'xxyyxxyyABCDABCD') throw new Error('wrong bytes');
} else {
  if (i === 0) {
    at(0, () => {
      bytes.fill(0x78, 0, 2); // 'xx'
      bytes.fill(0x79, 2, 4); // 'yy'
      bytes.copyWithin(4, 0, 4);
      if (bytes.slice(0, 8).length !== 8) throw new Error('slice');
    });
  } else {
    at(1, () => {
      bytes.set([0x41, 0x42, 0x43, 0x44], 8); // 'ABCD'
      bytes.subarray(12).set(bytes.subarray(8, 12));
      const text = Buffer.from(bytes.buffer, 8, 4).toString() + new TextDecoder().decode(bytes.subarray(12));
      if (text !== 'ABCDABCD') throw new Error(`read ${text}`);
    });
  }
}
