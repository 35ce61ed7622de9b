// The red-black SOR of sor-flat.mjs over a matrix held as an array of row views, `g[i][j]` (each row a
// Float64Array view of the one shared buffer: `grid.subarray(i * n, i * n + n)`), the way a grid is often written
// in JavaScript. The same grid, sweeps and barrier as sor-flat.mjs (its sum is the same). Race-free.
//
//   node bench/programs/sor-rows.mjs [N=800] [ITERATIONS=80] [WORKERS=2]
import { redBlackGrid, redBlackOn } from './lib/red-black.mjs';

const OMEGA = 1.25;
const shared = redBlackGrid();
const n = shared.n;
const g = Array.from({ length: n }, (_, i) => shared.grid.subarray(i * n, i * n + n));

function sweep(from, to, color) {
  for (let i = Math.max(from, 1); i < Math.min(to, n - 1); i++)
    for (let j = 1 + ((i + color) & 1); j < n - 1; j += 2)
      g[i][j] = (OMEGA / 4) * (g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1]) + (1 - OMEGA) * g[i][j];
}

await redBlackOn(import.meta.url, 'sor-rows', shared, sweep);
