// MonteCarlo's UNIVERSAL_DEBUG of Jumble's evaluation (Java Grande `montecarlo`, PLDI 2010 §6.1): every worker's
// constructor sets the shared debug flag to the same value and later reads it without synchronization. Every
// write writes the same value, so no read can return a different one: nothing to observe — benign.
//   node examples/jumble/montecarlo.mjs            → montecarlo mean 0.50
import { workers } from '../../test/programs/sched.mjs';

const PATHS = 200;
const { main, joined, i, debug, sums } = workers(import.meta.url, 2, () => ({
  debug: new Int32Array(new SharedArrayBuffer(4)), // Universal.UNIVERSAL_DEBUG
  sums: new Float64Array(new SharedArrayBuffer(16)),
}));

if (main) {
  await joined;
  console.log(`montecarlo mean ${((sums[0] + sums[1]) / (2 * PATHS)).toFixed(2)}`);
} else {
  debug[0] = 0; // new Universal(): UNIVERSAL_DEBUG = false
  let seed = 12345 + i;
  let sum = 0;
  for (let k = 0; k < PATHS; k++) {
    seed = (seed * 1103515245 + 12345) % 2147483648; // a deterministic "random walk"
    sum += seed / 2147483648;
    if (debug[0] !== 0) console.log(`path ${k}: ${sum}`); // racy read of the flag
  }
  sums[i] = sum;
}
