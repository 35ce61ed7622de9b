// expect: no race
// idiom: elements smaller than a word. a writes byte 2 of the buffer; b's range-checked loop then adds 1 to bytes
// 3-22 through a Uint8Array from byte 3, and sums an Int16Array over bytes 24-39: the loop's first word holds
// byte 2 too, but not as one of its elements, so the two threads touch different bytes and do not race.
import { workers } from './sched.mjs';

/** u[j] += 1 for j < n, and the sum of h[0..m). */
function bump(u, n, h, m) {
  for (let j = 0; j < n; j++) u[j] += 1;
  let s = 0;
  for (let j = 0; j < m; j++) s += h[j];
  return s;
}

const { main, joined, i, at, buffer } = workers(import.meta.url, 2, () => ({
  buffer: new SharedArrayBuffer(64),
}));
if (main) {
  await joined;
  console.log(`bytes 0-23: ${[...new Uint8Array(buffer, 0, 24)].join(',')}`);
} else if (i === 0) {
  at(0, () => {
    new Uint8Array(buffer)[2] = 7;
  });
} else {
  at(1, () =>
    console.log(`sum: ${bump(new Uint8Array(buffer, 3, 20), 20, new Int16Array(buffer, 24, 8), 8)}`),
  );
}
