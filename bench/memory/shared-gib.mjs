/**
 * A program sharing 1 GiB (issue 24 §1 "Scale": "a program sharing 1 GiB runs under the runtime"): the main thread
 * fills a 1 GiB SharedArrayBuffer as Float64s (`fill`, a bulk write), then two workers each write one element per
 * 4 KiB page of their half and read the other half's elements at the same stride; their start and join order them
 * after the fill and the main thread's final read after them. Race-free. Prints `{"sharedBytes","sum"}`.
 *
 *   goldilocks run bench/memory/shared-gib.mjs [MiB]     (default 1024)
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const STRIDE = 512; // Float64s: one per 4 KiB page

if (isMainThread) {
  const bytes = Number(process.argv[2] ?? 1024) * 2 ** 20;
  const sab = new SharedArrayBuffer(bytes);
  const f = new Float64Array(sab);
  f.fill(1);
  const half = f.length / 2;
  const sums = await Promise.all(
    [0, 1].map(
      (id) =>
        new Promise((resolve, reject) => {
          const w = new Worker(new URL(import.meta.url), {
            workerData: { sab, lo: id * half, hi: (id + 1) * half },
          });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    ),
  );
  let sum = sums[0] + sums[1];
  for (let i = 0; i < f.length; i += STRIDE) sum += f[i];
  console.log(JSON.stringify({ sharedBytes: bytes, sum }));
} else {
  const { sab, lo, hi } = workerData;
  const f = new Float64Array(sab);
  for (let i = lo; i < hi; i += STRIDE) f[i] = 2;
  let sum = 0;
  for (let i = lo; i < hi; i += STRIDE) sum += f[i];
  parentPort.postMessage(sum);
}
