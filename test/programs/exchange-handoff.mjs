// expect: no race
// idiom: hand-off by Atomics.exchange on both sides: the taker's exchange reads the giver's exchange.
import { workers } from './sched.mjs';

const { main, joined, i, at, box, data } = workers(import.meta.url, 2, () => ({
  box: new Int32Array(new SharedArrayBuffer(4)),
  data: new Uint8Array(new SharedArrayBuffer(4)),
}));
if (main) {
  await joined;
  if (data[0] !== 0) throw new Error(`data[0] ${data[0]}`);
} else {
  if (i === 0) {
    at(0, () => {
      data[0] = 200;
      Atomics.exchange(box, 0, 1);
    });
  } else {
    at(1, () => {
      if (Atomics.exchange(box, 0, 0) !== 1 || data[0] !== 200) throw new Error('nothing handed off');
      data[0] = 0;
    });
  }
}
