// Two shared byte arrays filled by worker threads, then compared element by element on the main thread with an early
// exit, written as a user would write it without this project in mind (a test's or a kernel's verification after the
// join: `for (...) if (got[i] !== want[i]) return i;`, which no range check can take: the loop may stop early). Each of
// WORKERS workers fills its block of both arrays; the main thread compares them PASSES times and reports where they
// differ. Race-free. Prints the result, the same under plain node and under `goldilocks run`.
//
//   node bench/programs/compare-bytes.mjs [N=4000000] [PASSES=1] [WORKERS=2]
import { isMainThread, workerData } from 'node:worker_threads';
import { blockArgs, runBlocks } from './lib/blocks.mjs';

function firstDifference(got, want) {
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return i;
  return -1;
}

if (isMainThread) {
  const { n, passes, workers } = blockArgs(process.argv, { n: 4_000_000, passes: 1, workers: 2 });
  const got = new Uint8Array(new SharedArrayBuffer(n));
  const want = new Uint8Array(new SharedArrayBuffer(n));
  await runBlocks(new URL(import.meta.url), n, workers, { got, want });
  let at = 0;
  for (let p = 0; p < passes; p++) at = firstDifference(got, want);
  console.log(`compare-bytes n=${n} passes=${passes} workers=${workers} first difference at ${at}`);
} else {
  const { got, want, from, to } = workerData;
  for (let i = from; i < to; i++) {
    got[i] = (i * 31) & 255;
    want[i] = (i * 31) & 255;
  }
}
