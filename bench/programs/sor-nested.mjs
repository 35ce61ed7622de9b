// The red-black SOR of sor-flat.mjs written with its sweep as a function nested in the program's main function,
// reading main's `grid`, `n` and `omega` as captured variables (no parameters, no locals copied from them), as a
// worker's main function is often written. The same grid, sweeps and barrier as sor-flat.mjs (its sum is the same).
// Race-free.
//
//   node bench/programs/sor-nested.mjs [N=800] [ITERATIONS=80] [WORKERS=2]
import { redBlackGrid, redBlackOn } from './lib/red-black.mjs';

async function main() {
  const { n, grid } = redBlackGrid();
  const omega = 1.25;

  function sweep(from, to, color) {
    for (let i = Math.max(from, 1); i < Math.min(to, n - 1); i++) {
      for (let j = 1 + ((i + color) & 1); j < n - 1; j += 2) {
        const k = i * n + j;
        grid[k] =
          (omega / 4) * (grid[k - n] + grid[k + n] + grid[k - 1] + grid[k + 1]) + (1 - omega) * grid[k];
      }
    }
  }

  await redBlackOn(import.meta.url, 'sor-nested', { n, grid }, sweep);
}

await main();
