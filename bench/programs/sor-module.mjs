// The red-black SOR of sor-flat.mjs written as a worker file often is: the grid and its size are the module's
// top-level bindings (`const grid = new Float64Array(workerData.gridBuffer)`: lib/red-black.mjs `redBlackGrid`), read
// by the sweep function, whose loops nest without braces. The same grid, sweeps and barrier as sor-flat.mjs (its sum
// is the same). Race-free.
//
//   node bench/programs/sor-module.mjs [N=800] [ITERATIONS=80] [WORKERS=2]
import { redBlackGrid, redBlackOn } from './lib/red-black.mjs';

const OMEGA = 1.25;
const shared = redBlackGrid();
const n = shared.n;
const grid = shared.grid;

function sweep(from, to, color) {
  for (let i = Math.max(from, 1); i < Math.min(to, n - 1); i++)
    for (let j = 1 + ((i + color) & 1); j < n - 1; j += 2)
      grid[i * n + j] =
        (OMEGA / 4) *
          (grid[i * n + j - n] + grid[i * n + j + n] + grid[i * n + j - 1] + grid[i * n + j + 1]) +
        (1 - OMEGA) * grid[i * n + j];
}

await redBlackOn(import.meta.url, 'sor-module', shared, sweep);
