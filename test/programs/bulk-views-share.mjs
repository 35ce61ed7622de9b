// expect: no race
// idiom: new Uint8Array(sab) and Buffer.from(sab) make views of the same memory without reading it; a hands the bytes to b through Atomics, and b reads them through both views.
import { workers } from './sched.mjs';

const { main, joined, i, at, shared } = workers(import.meta.url, 2, () => ({
  shared: new Int32Array(new SharedArrayBuffer(16)),
}));
if (main) {
  await joined;
} else {
  const bytes = new Uint8Array(shared.buffer);
  const buf = Buffer.from(shared.buffer);
  if (i === 0) {
    at(0, () => {
      bytes[4] = 1;
      buf[8] = 2;
      Atomics.store(shared, 0, 1);
    });
  } else {
    at(1, () => {
      if (Atomics.load(shared, 0) !== 1) throw new Error('not published');
      if (buf[4] + bytes[8] !== 3) throw new Error('bytes not seen');
    });
  }
}
