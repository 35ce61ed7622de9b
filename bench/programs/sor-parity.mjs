// Red-black successive over-relaxation as sor-flat.mjs (800×800, 80 iterations, 2 workers, an Atomics barrier), its
// colour chosen the other way users write it: every interior element of a row visited (`j++`), the other colour's
// skipped by `if ((i + j) % 2 !== color) continue;` — a loop whose accesses run in some iterations only. Race-free.
// Prints the grid's sum, the same under plain node and under `goldilocks run`.
//
//   node bench/programs/sor-parity.mjs [N=800] [ITERATIONS=80] [WORKERS=2]
import { redBlack } from './lib/red-black.mjs';

const OMEGA = 1.25;

function sweep(grid, n, from, to, color) {
  for (let i = Math.max(from, 1); i < Math.min(to, n - 1); i++) {
    for (let j = 1; j < n - 1; j++) {
      if ((i + j) % 2 !== color) continue;
      const k = i * n + j;
      grid[k] = (OMEGA / 4) * (grid[k - n] + grid[k + n] + grid[k - 1] + grid[k + 1]) + (1 - OMEGA) * grid[k];
    }
  }
}

await redBlack(import.meta.url, 'sor-parity', sweep);
