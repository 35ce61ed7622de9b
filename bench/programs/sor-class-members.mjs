// The red-black SOR of sor-class.mjs with the sweep reading its fields directly in its loops, as a class is often
// written: the size `this.n` in the bounds and indices, the factor `this.omega` in the body, no locals copied from
// them first (sor-class.mjs copies them). The same grid, sweeps and barrier as sor-flat.mjs (its sum is the same).
// Race-free.
//
//   node bench/programs/sor-class-members.mjs [N=800] [ITERATIONS=80] [WORKERS=2]
import { redBlackGrid, redBlackOn } from './lib/red-black.mjs';

class Solver {
  constructor({ n, grid }, omega) {
    this.n = n;
    this.grid = grid;
    this.omega = omega;
  }

  sweep(from, to, color) {
    for (let i = Math.max(from, 1); i < Math.min(to, this.n - 1); i++) {
      for (let j = 1 + ((i + color) & 1); j < this.n - 1; j += 2) {
        const k = i * this.n + j;
        this.grid[k] =
          (this.omega / 4) *
            (this.grid[k - this.n] + this.grid[k + this.n] + this.grid[k - 1] + this.grid[k + 1]) +
          (1 - this.omega) * this.grid[k];
      }
    }
  }
}

const shared = redBlackGrid();
const solver = new Solver(shared, 1.25);

await redBlackOn(import.meta.url, 'sor-class-members', shared, (from, to, color) =>
  solver.sweep(from, to, color),
);
