// expect: no race
// idiom: a red-black sweep written as a class whose method reads its grid as a member view (`this.g[i * N + j]`), and
// a function relaxing a state object's grid (`s.g[k]`), each worker its own rows, reading the rows next to them,
// which the other worker does not write: the inner loops take the range check, `this.g` and `s.g` read by
// `Hooks.row` as they are entered. The main thread checks the result after the joins against the same sweeps in one
// thread.
import { workers } from './sched.mjs';

const N = 16;

class Grid {
  constructor(g) {
    this.g = g;
  }

  /** The elements of `colour` of rows [lo, hi): each the mean of its row neighbours plus the element above. */
  sweep(lo, hi, colour) {
    for (let i = lo; i < hi; i++)
      for (let j = 1 + ((i + colour) & 1); j < N - 1; j += 2)
        this.g[i * N + j] = 0.5 * (this.g[i * N + j - 1] + this.g[i * N + j + 1]) + this.g[(i - 1) * N + j];
  }
}

/** Halves the elements of row r of `s.g`, but its first and last. */
function halve(s, r) {
  for (let j = 1; j < N - 1; j++) s.g[r * N + j] = s.g[r * N + j] / 2;
}

const { main, joined, i, at, a } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * N * N)).fill(1),
}));
if (main) {
  await joined;
  // the same sweeps on a copy of the start, in one thread: the workers' rows do not meet (row 8 is only read)
  const c = new Grid(new Float64Array(N * N).fill(1));
  for (const w of [0, 1]) {
    for (const colour of [0, 1]) c.sweep(1 + 8 * w, 8 + 8 * w, colour);
    halve(c, 2 + 8 * w);
  }
  for (let k = 0; k < N * N; k++) if (a[k] !== c.g[k]) throw new Error(`a[${k}] = ${a[k]}, not ${c.g[k]}`);
  if (a[N + 2] === 1) throw new Error('nothing was swept');
} else {
  at(i, () => {
    const grid = new Grid(a);
    grid.sweep(1 + 8 * i, 8 + 8 * i, 0);
    grid.sweep(1 + 8 * i, 8 + 8 * i, 1);
    halve({ g: a }, 2 + 8 * i);
  });
}
