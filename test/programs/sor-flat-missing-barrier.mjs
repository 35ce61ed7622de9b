// expect: race
// idiom: red-black SOR over one flat Float64Array (bench/programs/sor-flat.mjs, issue 24's opening example) whose
// last iteration skips the barrier between its two half sweeps: the schedule runs worker 1's whole last iteration
// first, its black half sweep writing row 9's black elements (the second line marked); worker 0's red half sweep
// then reads them from its last row, 8 (`grid[k + N]`, the first line marked), unordered. After two iterations with a
// barrier after each half sweep, so that the pages' words alternate between two histories (split, each word its
// list). Under --on-race=throw the exception comes at row 8's first red element, before it is updated.

import { barrier } from '../../bench/programs/lib/barrier.mjs';
import { workers } from './sched.mjs';

const N = 18;
const ITERATIONS = 3;
const OMEGA = 1.25;
/** Where a worker's sweep is: its row and column (read after a DataRaceException). */
let row = -1;
let col = -1;

/** Updates the elements of `color` (0 red, 1 black) of rows [from, to), skipping the grid's border. */
function sweep(grid, from, to, color) {
  for (let i = Math.max(from, 1); i < Math.min(to, N - 1); i++) {
    for (let j = 1 + ((i + color) & 1); j < N - 1; j += 2) {
      const k = i * N + j;
      row = i;
      col = j;
      const v = (OMEGA / 4) * (grid[k - N] + grid[k + N] + grid[k - 1] + grid[k + 1]) + (1 - OMEGA) * grid[k]; // race
      grid[k] = v; // race
    }
  }
}

const { main, joined, i, at, grid, sync } = workers(import.meta.url, 2, () => {
  const grid = new Float64Array(new SharedArrayBuffer(8 * N * N));
  for (let k = 0; k < N * N; k++) grid[k] = (k % 7) / 7;
  return { grid, sync: new Int32Array(new SharedArrayBuffer(8)) };
});
if (main) {
  await joined;
} else {
  const rows = N / 2;
  const from = i * rows;
  const to = from + rows;
  for (let it = 0; it < ITERATIONS - 1; it++) {
    sweep(grid, from, to, 0);
    barrier(sync, 2);
    sweep(grid, from, to, 1);
    barrier(sync, 2);
  }
  // the last iteration: no barrier between the half sweeps; the schedule runs worker 1's first
  const before = grid.slice((to - 1) * N, to * N); // this worker's last row, before the last iteration
  const last = () => {
    try {
      sweep(grid, from, to, 0);
      sweep(grid, from, to, 1);
    } catch (e) {
      if (e?.name !== 'DataRaceException') throw e;
      console.log(`worker ${i}: DataRaceException at row ${row}, column ${col}`);
      if (row !== to - 1 || col !== 1 + (row & 1))
        throw new Error(`thrown at row ${row}, column ${col}, not at row ${to - 1}'s first red element`);
      if (grid[row * N + col] !== before[col]) throw new Error('the element was updated');
    }
  };
  if (i === 1) at(0, last);
  else at(1, last);
}
