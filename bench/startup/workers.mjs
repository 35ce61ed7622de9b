/**
 * The program of bench/worker-start.ts: starts `n` workers one after the other (argument 1, default 5), each
 * running this file (argument 2 `esm`, the default: an ES module entry) or ./worker.cjs (`cjs`: a CommonJS entry),
 * which posts a message as its first statement, and prints one JSON line `{"startMs":[...],"threads":T,"cpuMs":C}`:
 * per worker, the milliseconds from `new Worker()` to that message (the worker's start-up: thread, preloads, loader
 * hooks, loading its module); the most threads the process had (Linux `/proc/self/status`) when a worker's message
 * arrived; and the process's CPU time (user + system, all threads, `process.cpuUsage`) up to the last worker's exit.
 */
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

/** The process's thread count now, or 0 where /proc is missing. */
function threadCount() {
  try {
    return Number(/^Threads:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

if (isMainThread) {
  const n = Number(process.argv[2] ?? 5);
  const entry =
    process.argv[3] === 'cjs' ? new URL('./worker.cjs', import.meta.url) : new URL(import.meta.url);
  const startMs = [];
  let threads = 0;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await new Promise((resolve, reject) => {
      const w = new Worker(entry);
      w.once('message', () => {
        startMs.push(Math.round((performance.now() - t0) * 10) / 10);
        threads = Math.max(threads, threadCount());
        w.terminate().then(resolve, reject);
      });
      w.once('error', reject);
    });
  }
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ startMs, threads, cpuMs: Math.round((cpu.user + cpu.system) / 100) / 10 }));
} else parentPort.postMessage('started');
