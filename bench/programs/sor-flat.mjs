// Red-black successive over-relaxation on an N×N grid shared by worker threads, written as a user would write it
// without this project in mind (issue 24's opening example: 800×800, 80 iterations, 2 workers, an Atomics barrier):
// one flat Float64Array indexed `i * n + j`, rows split in blocks between workers, a sense-reversing barrier after
// each half sweep. Race-free. Prints the grid's sum, the same under plain node and under `goldilocks run`.
//
//   node bench/programs/sor-flat.mjs [N=800] [ITERATIONS=80] [WORKERS=2]
import { redBlack } from './lib/red-black.mjs';

const OMEGA = 1.25;

function sweep(grid, n, from, to, color) {
  for (let i = Math.max(from, 1); i < Math.min(to, n - 1); i++) {
    for (let j = 1 + ((i + color) & 1); j < n - 1; j += 2) {
      const k = i * n + j;
      grid[k] = (OMEGA / 4) * (grid[k - n] + grid[k + n] + grid[k - 1] + grid[k + 1]) + (1 - OMEGA) * grid[k];
    }
  }
}

await redBlack(import.meta.url, 'sor-flat', sweep);
