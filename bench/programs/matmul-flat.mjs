// A matrix product C = A × B over flat Float64Arrays shared by worker threads, written as a user would write it
// without this project in mind: `s += a[i * n + k] * b[k * n + j]`, rows of C split in blocks between workers, the
// main thread filling A and B first and summing C after the joins. Race-free. Prints C's sum, the same under plain node
// and under `goldilocks run`.
//
//   node bench/programs/matmul-flat.mjs [N=600] [WORKERS=2]
import { isMainThread, Worker, workerData } from 'node:worker_threads';

function multiply(a, b, c, n, from, to) {
  for (let i = from; i < to; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

if (isMainThread) {
  const n = Number(process.argv[2] ?? 600);
  const workers = Number(process.argv[3] ?? 2);
  const matrix = () => new Float64Array(new SharedArrayBuffer(8 * n * n));
  const a = matrix();
  const b = matrix();
  const c = matrix();
  for (let k = 0; k < n * n; k++) {
    a[k] = (k % 7) / 7;
    b[k] = (k % 5) / 5;
  }
  const rows = Math.ceil(n / workers);
  const done = [];
  for (let w = 0; w < workers; w++) {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { a, b, c, n, from: w * rows, to: Math.min(n, (w + 1) * rows) },
    });
    done.push(new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject)));
  }
  await Promise.all(done);
  let sum = 0;
  for (let k = 0; k < n * n; k++) sum += c[k];
  console.log(`matmul-flat n=${n} workers=${workers} sum=${sum.toFixed(6)}`);
} else {
  const { a, b, c, n, from, to } = workerData;
  multiply(a, b, c, n, from, to);
}
