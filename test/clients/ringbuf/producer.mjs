// The producer of ring.test.mjs: pushes `total` elements into the ring of `sab`, napping 1 ms when it is full.
import { workerData } from 'node:worker_threads';
import { RingBuffer } from 'ringbuf.js';

const { kind, sab, total } = workerData;
const nap = new Int32Array(new SharedArrayBuffer(4));
const sizes = [5, 100, 1, 33, 256];
let sent = 0;
let turn = 0;
if (kind === 'int32') {
  const ring = new RingBuffer(sab, Int32Array);
  const chunk = new Int32Array(256);
  while (sent < total) {
    const n = Math.min(total - sent, sizes[turn++ % sizes.length]);
    for (let k = 0; k < n; k++) chunk[k] = (sent + k) * 3 + 1;
    let pushed = 0;
    while (pushed < n) {
      const m = ring.push(chunk, n - pushed, pushed);
      if (m === 0) Atomics.wait(nap, 0, 0, 1);
      pushed += m;
    }
    sent += n;
  }
} else {
  const ring = new RingBuffer(sab, Float32Array);
  while (sent < total) {
    const written = ring.writeCallback(Math.min(total - sent, 37), (first, second) => {
      for (let k = 0; k < first.length; k++) first[k] = (sent + k) / 4;
      for (let k = 0; k < second.length; k++) second[k] = (sent + first.length + k) / 4;
    });
    if (written === 0) Atomics.wait(nap, 0, 0, 1);
    sent += written;
  }
}
