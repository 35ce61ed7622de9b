// expect: no race
// idiom: bulk writes (set, fill, copyWithin) published by Atomics.store, then bulk reads (slice, Buffer.toString, TextDecoder, set) after Atomics.load.
import { workers } from './sched.mjs';

const { main, joined, i, at, flag, bytes } = workers(import.meta.url, 2, () => ({
  flag: new Int32Array(new SharedArrayBuffer(4)),
  bytes: new Uint8Array(new SharedArrayBuffer(12)),
}));
if (main) {
  await joined;
  if (bytes[11] !== 0) throw new Error('not cleared');
} else {
  if (i === 0) {
    at(0, () => {
      bytes.set([0x61, 0x62, 0x63, 0x64]); // 'abcd'
      bytes.fill(0x7a, 4, 8); // 'zzzz'
      bytes.copyWithin(8, 0, 4); // 'abcd'
      Atomics.store(flag, 0, 1);
    });
  } else {
    at(1, () => {
      while (Atomics.load(flag, 0) !== 1);
      const local = new Uint8Array(12);
      local.set(bytes);
      const text = [
        Buffer.from(bytes.slice(0, 4)).toString(),
        Buffer.from(bytes.buffer, 4, 4).toString('latin1'),
        new TextDecoder().decode(bytes.subarray(8)),
      ].join();
      if (text !== 'abcd,zzzz,abcd' || local[9] !== 0x62) throw new Error(`read ${text}`);
      bytes.fill(0);
    });
  }
}
