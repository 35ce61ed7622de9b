/**
 * The program of `npm run bench:eager` (bench/eager.ts): one thread walks a hash map of N buckets the way a
 * fine-grained-locking shared map does (sharedmap 1.2.0's `map()`, docs/RESULTS.md): per bucket, a shared read lock
 * taken and dropped with `Atomics.add`/`Atomics.sub`, the bucket's line lock (one bit of an Int32 word of 32 line
 * locks) taken with `Atomics.or` and dropped with `Atomics.and` + `Atomics.notify`, and the bucket's key and value
 * written (a first pass) or read (two more) in between, 16 Uint16 each. Every bucket's data is then owned at its own position of the synchronization event list, each
 * line word a distinct atomic location: the case where partially-eager evaluation (§5.4) has thousands of distinct
 * starts. Prints `{"buckets":N,"ms":M,"sum":S}` (the three passes' time).
 *   node bench/eager/buckets.mjs N
 */
const N = Number(process.argv[2] ?? 4000);
const readers = new Int32Array(new SharedArrayBuffer(4));
const lines = new Int32Array(new SharedArrayBuffer(4 * Math.ceil(N / 32)));
const keys = new Uint16Array(new SharedArrayBuffer(2 * 16 * N));
const values = new Uint16Array(new SharedArrayBuffer(2 * 16 * N));

/** Runs `body(pos)` for each bucket holding its locks. */
function eachBucket(body) {
  for (let pos = 0; pos < N; pos++) {
    Atomics.add(readers, 0, 1);
    const bit = 1 << (pos % 32);
    const word = Math.floor(pos / 32);
    while (Atomics.or(lines, word, bit) & bit) Atomics.wait(lines, word, Atomics.load(lines, word));
    body(pos);
    Atomics.and(lines, word, ~bit);
    Atomics.notify(lines, word);
    Atomics.sub(readers, 0, 1);
  }
}

const t0 = performance.now();
let sum = 0;
eachBucket((pos) => {
  for (let j = 0; j < 16; j++) keys[16 * pos + j] = values[16 * pos + j] = (pos + j) & 0xffff;
});
for (let pass = 0; pass < 2; pass++)
  eachBucket((pos) => {
    for (let j = 0; j < 16; j++) sum += keys[16 * pos + j] + values[16 * pos + j];
  });
console.log(JSON.stringify({ buckets: N, ms: Math.round(performance.now() - t0), sum }));
