/**
 * The program of `npm run bench:eager` (bench/eager.ts): threads walk a hash map of N buckets the way a
 * fine-grained-locking shared map does (sharedmap 1.2.0's `map()` and its test.js, docs/RESULTS.md): per bucket, a
 * shared read lock taken and dropped with `Atomics.add`/`Atomics.sub`, the bucket's line lock (one bit of an Int32
 * word of 32 line locks) taken with `Atomics.or` and dropped with `Atomics.and` + `Atomics.notify`, and the bucket's
 * key and value written or read in between, 16 Uint16 each. Every bucket's data is then owned at its own position of
 * the synchronization event list, each line word a distinct atomic location: the case where partially-eager
 * evaluation (§5.4) has thousands of distinct starts.
 *
 * WORKERS = 0 (the default): the main thread alone, a pass of writes then two of reads. WORKERS ≥ 1: that many
 * workers, as sharedmap's test.js runs them: each writes its buckets (every WORKERS-th), then reads every bucket, then
 * writes its buckets again, posting a line to the main thread after each pass (test.js's progress lines: each a
 * message the main thread receives); the main thread joins them. Race-free. Prints
 * `{"buckets":N,"workers":W,"ms":M,"sum":S}` (the passes' time, the sum of the values read).
 *   node bench/eager/buckets.mjs N [WORKERS]
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** Runs `body(pos)` for every `step`-th bucket from `first`, holding its locks. */
function eachBucket({ readers, lines }, n, first, step, body) {
  for (let pos = first; pos < n; pos += step) {
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

/** Writes bucket `pos`'s key and value with `salt`. */
function write({ keys, values }, pos, salt) {
  for (let j = 0; j < 16; j++) keys[16 * pos + j] = values[16 * pos + j] = (pos + j + salt) & 0xffff;
}

/** The sum of bucket `pos`'s key and value. */
function read({ keys, values }, pos) {
  let sum = 0;
  for (let j = 0; j < 16; j++) sum += keys[16 * pos + j] + values[16 * pos + j];
  return sum;
}

if (isMainThread) {
  const n = Number(process.argv[2] ?? 4000);
  const workers = Number(process.argv[3] ?? 0);
  const map = {
    readers: new Int32Array(new SharedArrayBuffer(4)),
    lines: new Int32Array(new SharedArrayBuffer(4 * Math.ceil(n / 32))),
    keys: new Uint16Array(new SharedArrayBuffer(2 * 16 * n)),
    values: new Uint16Array(new SharedArrayBuffer(2 * 16 * n)),
  };
  const t0 = performance.now();
  let sum = 0;
  if (workers === 0) {
    eachBucket(map, n, 0, 1, (pos) => write(map, pos, 0));
    for (let pass = 0; pass < 2; pass++)
      eachBucket(map, n, 0, 1, (pos) => {
        sum += read(map, pos);
      });
  } else {
    const done = [];
    for (let w = 0; w < workers; w++) {
      const worker = new Worker(new URL(import.meta.url), { workerData: { map, n, w, workers } });
      worker.on('message', (m) => {
        if (typeof m === 'number') sum += m;
      });
      done.push(new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject)));
    }
    await Promise.all(done);
  }
  console.log(JSON.stringify({ buckets: n, workers, ms: Math.round(performance.now() - t0), sum }));
} else {
  const { map, n, w, workers } = workerData;
  eachBucket(map, n, w, workers, (pos) => write(map, pos, 0));
  parentPort.postMessage(`worker ${w}: wrote`);
  let sum = 0;
  eachBucket(map, n, 0, 1, (pos) => {
    sum += read(map, pos);
  });
  parentPort.postMessage(`worker ${w}: read`);
  eachBucket(map, n, w, workers, (pos) => write(map, pos, 1));
  parentPort.postMessage(sum);
}
