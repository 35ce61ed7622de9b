// expect: race
// idiom: a loop writing a column of a flat n×n Float64Array (`m[k * n + col] = v`, a stride of n elements) that
// races: b's loop writes column 3 after a's unordered write of row 5's element there. Under --on-race=throw the
// exception comes at row 5: rows 0-4 of the column are written, row 5 holds a's value, the rows after it 0.
import { thrownLeaving, twoSteps } from './sched.mjs';

const raw = globalThis[Symbol.for('goldilocks.rawAtomics')] ?? Atomics;

/** Writes `v` into column `col` of the n×n matrix `m`. */
function fillColumn(m, n, col, v) {
  for (let k = 0; k < n; k++) m[k * n + col] = v; // race
}

/** Column `col` of the n×n Float64Array `m`, read with the original Atomics (invisible to the detector). */
function peekColumn(m, n, col) {
  const words = new Int32Array(m.buffer);
  const out = [];
  for (let k = 0; k < n; k++) {
    const pair = new Int32Array([raw.load(words, 2 * (k * n + col)), raw.load(words, 2 * (k * n + col) + 1)]);
    out.push(new Float64Array(pair.buffer)[0]);
  }
  return out;
}

const N = 10;
await twoSteps(
  import.meta.url,
  N * N,
  (a) => {
    a[5 * N + 3] = 1; // race
  },
  (a) =>
    thrownLeaving(
      () => fillColumn(a, N, 3, 2),
      () => peekColumn(a, N, 3).join(','),
      '2,2,2,2,2,1,0,0,0,0',
      'thrown at row 5, before its write',
    ),
);
