// expect: no race
// idiom: a red-black sweep written as a class whose method reads its fields directly, the size `this.n` in the
// bounds and indices and the factor `this.omega` in the body (`this.g[i * this.n + j]`), and a function halving a
// row of a state object bounded by `s.n`, each worker its own rows, reading the rows next to them, which the other
// worker does not write: the inner loops take the range check, `this.n`, `this.omega` and `s.n` read by `Hooks.row`
// as they are entered. The main thread checks the result after the joins against the same sweeps in one thread.
import { workers } from './sched.mjs';

const N = 32;

class Grid {
  constructor(g, n, omega) {
    this.g = g;
    this.n = n;
    this.omega = omega;
  }

  /** The elements of `colour` of rows [lo, hi): each relaxed towards a quarter of the sum of its row neighbours and the one above. */
  sweep(lo, hi, colour) {
    for (let i = lo; i < hi; i++)
      for (let j = 1 + ((i + colour) & 1); j < this.n - 1; j += 2)
        this.g[i * this.n + j] =
          (this.omega / 4) *
            (this.g[i * this.n + j - 1] + this.g[i * this.n + j + 1] + this.g[(i - 1) * this.n + j]) +
          (1 - this.omega) * this.g[i * this.n + j];
  }
}

/** Halves the elements of row r of `s.g`, but its first and last. */
function halve(s, r) {
  for (let j = 1; j < s.n - 1; j++) s.g[r * s.n + j] = s.g[r * s.n + j] / s.two;
}

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * N * N)).fill(1),
}));
if (main) {
  await joined;
  // the same sweeps on a copy of the start, in one thread: the workers' rows do not meet (row 8 is only read)
  const c = new Grid(new Float64Array(N * N).fill(1), N, 1.25);
  for (const w of [0, 1]) {
    for (const colour of [0, 1]) c.sweep(1 + 8 * w, 8 + 8 * w, colour);
    halve({ g: c.g, n: N, two: 2 }, 2 + 8 * w);
  }
  for (let k = 0; k < N * N; k++) if (a[k] !== c.g[k]) throw new Error(`a[${k}] = ${a[k]}, not ${c.g[k]}`);
  if (a[N + 2] === 1) throw new Error('nothing was swept');
} else {
  at(i, () => {
    const grid = new Grid(a, N, 1.25);
    grid.sweep(1 + 8 * i, 8 + 8 * i, 0);
    grid.sweep(1 + 8 * i, 8 + 8 * i, 1);
    halve({ g: a, n: N, two: 2 }, 2 + 8 * i);
  });
}
