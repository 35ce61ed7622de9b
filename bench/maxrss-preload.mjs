/**
 * Peak-memory probe for bench/runtime.ts, loaded into the measured processes with `--import` (through
 * NODE_OPTIONS, so that it also reaches the program `goldilocks run` spawns). When the process exits, its main
 * thread appends one JSON line `{"pid","script","maxRSSKiB"}` to the file named by GOLDILOCKS_BENCH_MAXRSS:
 * `process.resourceUsage().maxRSS` is the peak resident set of the whole process, worker threads included.
 */
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.GOLDILOCKS_BENCH_MAXRSS;
if (file && isMainThread)
  process.on('exit', () => {
    const line = {
      pid: process.pid,
      script: process.argv[1] ?? '',
      maxRSSKiB: process.resourceUsage().maxRSS,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  });
