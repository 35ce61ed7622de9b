// expect: no race
// idiom: range-checked loops bounded by the length of a member view (`j < this.g.length`, and cached in the header,
// `for (let j = 0, n = this.g.length; j < n; j++)`) and of a row of an array of views (`j < rows[r].length`): each
// worker scales its half of a through a class holding its subarray, then doubles its rows of an array of row views;
// the main thread checks the sums after the joins.
import { workers } from './sched.mjs';

class Half {
  constructor(g) {
    this.g = g;
  }

  /** Multiplies every element by k. */
  scale(k) {
    for (let j = 0; j < this.g.length; j++) this.g[j] *= k;
  }

  /** The sum of the elements. */
  sum() {
    let s = 0;
    for (let j = 0, n = this.g.length; j < n; j++) s += this.g[j];
    return s;
  }
}

/** Doubles the elements of rows[from..to). */
function doubleRows(rows, from, to) {
  for (let r = from; r < to; r++) for (let j = 0; j < rows[r].length; j++) rows[r][j] *= 2;
}

const { main, joined, i, at, a, b } = workers(import.meta.url, 2, () => ({
  a: new Float64Array(new SharedArrayBuffer(8 * 64)).fill(1),
  b: new Float64Array(new SharedArrayBuffer(8 * 64)).fill(3),
}));
if (main) {
  await joined;
  const sums = [a, b].map((v) => v.reduce((s, x) => s + x, 0)).join(' ');
  if (sums !== `${64 * 3} ${64 * 6}`) throw new Error(`sums ${sums}`);
} else {
  at(i, () => {
    const half = new Half(a.subarray(32 * i, 32 * i + 32));
    half.scale(3);
    if (half.sum() !== 96) throw new Error(`worker ${i}: sum ${half.sum()}`);
    const rows = Array.from({ length: 4 }, (_, r) => b.subarray(16 * r, 16 * r + 16));
    doubleRows(rows, 2 * i, 2 * i + 2);
  });
}
