/**
 * The program of bench/worker-start.ts: starts `n` workers one after the other (argument 1, default 5), each
 * running this file, which posts a message as its module's first statement, and prints one JSON line
 * `{"startMs":[...]}`: per worker, the milliseconds from `new Worker()` to that message (the worker's start-up:
 * thread, preloads, loader hooks, loading its module).
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

if (isMainThread) {
  const n = Number(process.argv[2] ?? 5);
  const startMs = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await new Promise((resolve, reject) => {
      const w = new Worker(new URL(import.meta.url));
      w.once('message', () => {
        startMs.push(Math.round((performance.now() - t0) * 10) / 10);
        w.terminate().then(resolve, reject);
      });
      w.once('error', reject);
    });
  }
  console.log(JSON.stringify({ startMs }));
} else parentPort.postMessage('started');
