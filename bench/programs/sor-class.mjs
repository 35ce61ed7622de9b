// The red-black SOR of sor-flat.mjs written as a class, the way a solver is often written in JavaScript: the grid
// and its size are fields (`this.grid`, `this.n`) read by the sweep method, the flat Float64Array indexed `i * n + j`.
// The same grid, sweeps and barrier as sor-flat.mjs (its sum is the same). Race-free.
//
//   node bench/programs/sor-class.mjs [N=800] [ITERATIONS=80] [WORKERS=2]
import { redBlackGrid, redBlackOn } from './lib/red-black.mjs';

class Solver {
  constructor({ n, grid }, omega) {
    this.n = n;
    this.grid = grid;
    this.omega = omega;
  }

  sweep(from, to, color) {
    const n = this.n;
    const w = this.omega;
    for (let i = Math.max(from, 1); i < Math.min(to, n - 1); i++) {
      for (let j = 1 + ((i + color) & 1); j < n - 1; j += 2) {
        const k = i * n + j;
        this.grid[k] =
          (w / 4) * (this.grid[k - n] + this.grid[k + n] + this.grid[k - 1] + this.grid[k + 1]) +
          (1 - w) * this.grid[k];
      }
    }
  }
}

const shared = redBlackGrid();
const solver = new Solver(shared, 1.25);

await redBlackOn(import.meta.url, 'sor-class', shared, (from, to, color) => solver.sweep(from, to, color));
