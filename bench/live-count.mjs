// The program bench/live-instructions.ts counts under valgrind, run under `node --import DIST/node/register.js`
// (the live runtime, one thread): `node bench/live-count.mjs PATTERN ROUNDS`. Each round does 2 × 2^16 element
// accesses of a shared Float64Array, by PATTERN:
//   checked  — a read loop and a write loop, each after an `Atomics.add` (a new epoch: every access is a word check);
//   filtered — the same loops with no synchronization after the first round's (all covered by the same-epoch
//              filter from the second round on);
//   atomic   — `Atomics.add` on an Int32Array element (a checked atomic access and a synchronization cell each);
//   columns  — lufact's daxpy (bench/kernels/lufact.mjs `update`): after an `Atomics.add` (a new epoch), each of the
//              columns 1–63 of 1024 elements gets `col[i] += t * col0[i]` for i in [1, 1024) (range-checked loops over
//              128 pages, the first one partly: a write run per column, col0's reads covered after the first;
//              2 × 63 × 1023 accesses a round);
//   fresh    — round r writes the r-th 2^16 elements of a shared Float64Array of rounds × 2^16, in order, each from
//              the one before (montecarlo's paths at size large: every write a word never accessed, its read a
//              same-epoch hit; 2 × 2^16 accesses a round; one buffer, not one a round: a buffer collected meanwhile
//              would make the counts of R and 2R rounds differ by more than the rounds);
//   scatter  — after an `Atomics.add` (a new epoch), each element is read and written once (`g[i] -= 1`), the 8 of a
//              page in a fixed order that is not the index order (moldyn's `acc[base + 3*j + d] -= f` at size large:
//              each word's first access in the epoch is a check, on a page written whole the epoch before);
//   checkerboard — red-black SOR's half sweeps (bench/programs/sor-flat.mjs) over g as 256 rows of 256: for each
//              colour, after an `Atomics.add` (a new epoch), each red element k (`(i + j + colour)` even) gets
//              `g[k] = 0.5 * (g[k] + g[k ^ 1])` (its row neighbour, black): every word's first access in the epoch is a
//              check, on a page whose words alternate between two histories (3 × 2^16 accesses a round);
//   private  — the loops of `checked` over a buffer made after the program's one send and never sent: private to the
//              thread, its accesses unchecked (docs/RUNTIME.md "Private buffers"). The other patterns' buffers are
//              public (sent first), as a worker program's are.
// Prints a checksum so that the loops are not dead code.
const [pattern, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
const N = 1 << 16;
const g = new Float64Array(new SharedArrayBuffer(8 * N));
const flag = new Int32Array(new SharedArrayBuffer(4 * N));
const paths = new Float64Array(new SharedArrayBuffer(pattern === 'fresh' ? 8 * N * rounds : 8));
new MessageChannel().port1.postMessage(0); // a send: g, flag and paths are public from here on
const p = new Float64Array(new SharedArrayBuffer(8 * N));
let s = 0;
const read = () => {
  for (let j = 0; j < N; j++) s += g[j];
};
const write = () => {
  for (let j = 0; j < N; j++) g[j] = s + j;
};
const COLUMN = 1024;
/** The column from a[col] += t × the column from a[0], from row 1 on (n rows; lufact's loop, range-checked). */
const daxpy = (a, n, col, t) => {
  for (let i = 1; i < n; i++) a[col + i] += t * a[i];
};
/** Round r's fresh elements, written in order from the one before (bench/kernels/montecarlo.mjs `simulate`). */
/** The order `scatter` visits the 8 elements of a page in. */
const ORDER = [5, 2, 7, 0, 3, 6, 1, 4];
/** Each element of g read and written once, page by page, in {@link ORDER}. */
const scatter = () => {
  for (let p = 0; p < N; p += 8) for (let k = 0; k < 8; k++) g[p + ORDER[k]] -= 1;
};
const ROW = 256;
/** One half sweep of `checkerboard`: the elements of `colour`, each from itself and its row neighbour. */
const halfSweep = (colour) => {
  for (let i = 0; i < ROW; i++)
    for (let j = (i + colour) & 1; j < ROW; j += 2) {
      const k = i * ROW + j;
      g[k] = 0.5 * (g[k] + g[k ^ 1]);
    }
};
const fresh = (r) => {
  const o = r * N;
  paths[o] = s;
  for (let j = o + 1; j < o + N; j++) paths[j] = paths[j - 1] * 0.5 + j;
  s += paths[o + N - 1];
};
for (let r = 0; r < rounds; r++) {
  if (pattern === 'checked') {
    Atomics.add(flag, 0, 1);
    read();
    Atomics.add(flag, 0, 1);
    write();
  } else if (pattern === 'filtered') {
    if (r === 0) Atomics.add(flag, 0, 1);
    read();
    write();
  } else if (pattern === 'columns') {
    Atomics.add(flag, 0, 1);
    for (let c = 1; c < 64; c++) daxpy(g, COLUMN, c * COLUMN, 1 / c);
    s += g[COLUMN + 1];
  } else if (pattern === 'private') {
    Atomics.add(flag, 0, 1);
    for (let j = 0; j < N; j++) s += p[j];
    Atomics.add(flag, 0, 1);
    for (let j = 0; j < N; j++) p[j] = s + j;
  } else if (pattern === 'scatter') {
    Atomics.add(flag, 0, 1);
    scatter();
    s += g[ORDER[0]];
  } else if (pattern === 'checkerboard') {
    Atomics.add(flag, 0, 1);
    halfSweep(0);
    Atomics.add(flag, 0, 1);
    halfSweep(1);
    s += g[1];
  } else if (pattern === 'fresh') {
    fresh(r);
  } else if (pattern === 'atomic') {
    for (let j = 0; j < N; j++) Atomics.add(flag, j, 1);
    for (let j = 0; j < N; j++) s += Atomics.load(flag, j);
  } else throw new Error(`unknown pattern ${pattern}`);
}
console.log(s);
