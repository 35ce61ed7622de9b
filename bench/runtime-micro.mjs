/**
 * Per-access cost of the live runtime's element path, run by `npm run bench:instrument` under
 * `node --import dist/runtime/register.js` (one thread): a read loop over a shared Float64Array whose accesses
 * the same-epoch filter covers (the buffer was read in this epoch already), and the same loop after an
 * `Atomics.add` (a synchronization operation: a new epoch), where every access is a word check; then a loop of
 * `Atomics.add` calls (each a checked atomic access and a synchronization cell). Prints ns per access, best of 60
 * rounds, as `filtered <ns>`, `checked <ns>` and `atomic <ns>`; plain `node` gives the uninstrumented loops.
 */
const N = 1 << 16;
const g = new Float64Array(new SharedArrayBuffer(8 * N));
const flag = new Int32Array(new SharedArrayBuffer(4));

function sum() {
  let s = 0;
  for (let j = 0; j < N; j++) s += g[j];
  return s;
}

function best(body) {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 60; r++) {
    const t0 = process.hrtime.bigint();
    body();
    min = Math.min(min, Number(process.hrtime.bigint() - t0));
  }
  return (min / N).toFixed(2);
}

sum();
console.log(`filtered ${best(sum)}`);
console.log(
  `checked ${best(() => {
    Atomics.add(flag, 0, 1);
    sum();
  })}`,
);
console.log(
  `atomic ${best(() => {
    for (let j = 0; j < N; j++) Atomics.add(flag, 0, 1);
  })}`,
);
