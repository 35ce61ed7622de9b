// expect: race
// idiom: aliasing views of different element sizes: b's loop reads lane 3 of each word through a Uint8Array and
// writes each word through a Float64Array over the same bytes; a wrote byte 19 (lane 3 of word 2) unordered. The
// two views overlap, so the loop keeps its per-access checks, which report the race at word 2's byte read.
import { workers } from './sched.mjs';

/** f[j] = u[8 * j + 3] for j < n. */
function spread(u, f, n) {
  for (let j = 0; j < n; j++) f[j] = u[8 * j + 3]; // race
}

const { main, joined, i, at, buffer } = workers(import.meta.url, 2, () => ({
  buffer: new SharedArrayBuffer(64),
}));
if (main) {
  await joined;
  console.log(`words: ${[...new Float64Array(buffer)].join(',')}`);
} else if (i === 0) {
  at(0, () => {
    new Uint8Array(buffer)[19] = 4; // race
  });
} else {
  at(1, () => spread(new Uint8Array(buffer), new Float64Array(buffer), 8));
}
