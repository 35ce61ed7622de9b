// expect: no race
// idiom: TextEncoder.encodeInto() writes into shared memory, published by Atomics.store; the other worker reads the bytes after Atomics.load.
import { workers } from './sched.mjs';

const { main, joined, i, at, flag, bytes } = workers(import.meta.url, 2, () => ({
  flag: new Int32Array(new SharedArrayBuffer(4)),
  bytes: new Uint8Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
} else {
  if (i === 0) {
    at(0, () => {
      new TextEncoder().encodeInto('ok', bytes);
      Atomics.store(flag, 0, 1);
    });
  } else {
    at(1, () => {
      while (Atomics.load(flag, 0) !== 1);
      const text = String.fromCharCode(bytes[0], bytes[1]);
      if (text !== 'ok') throw new Error(`read ${text}`);
    });
  }
}
