// expect: no race
// idiom: a red-black sweep that picks its colour by a condition (`if ((i + j) % 2 !== color) continue;` over
// `j++`): worker 0 relaxes the red elements of each row, worker 1 the black ones, at once, each reading only its own
// colour's elements two apart; and a loop skipping by `(j - 5) & 1`, whose parity is exact below zero too. No race:
// the colours never share an element. The main thread sums after the joins.
import { workers } from './sched.mjs';

/** Relaxes the elements of colour `color` in rows 0-3 of the 4×n grid `g` towards their neighbours two apart. */
function relax(g, color, n) {
  for (let i = 0; i < 4; i++) {
    const row = i * n;
    for (let j = 2; j < n - 2; j++) {
      if ((i + j) % 2 !== color) continue;
      g[row + j] = (g[row + j - 2] + g[row + j] + g[row + j + 2]) / 3;
    }
  }
}

/** Adds 1 to the elements `j` of `g` below 16 whose `j - 5` has the parity of `odd`. */
function bump(g, odd) {
  for (let j = 0; j < 16; j++) {
    if (((j - 5) & 1) !== odd) continue;
    g[64 + j] += 1;
  }
}

const { main, joined, i, g } = workers(import.meta.url, 2, () => ({
  g: new Float64Array(new SharedArrayBuffer(8 * 80)).fill(3),
}));
if (main) {
  await joined;
  let sum = 0;
  for (let k = 0; k < 80; k++) sum += g[k];
  if (Math.abs(sum - (3 * 80 + 16)) > 1e-9) throw new Error(`sum ${sum}`);
  console.log('colours relaxed: the sum kept');
} else {
  for (let round = 0; round < 3; round++) relax(g, i, 16);
  bump(g, i);
}
