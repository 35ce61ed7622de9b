/**
 * Worker start-up, plain vs under the live runtime (issue 24 §2: "a worker under the runtime starts within 50 ms of a
 * plain one"):
 *
 *   npm run bench:worker-start -- [--workers N] [--repeat R] [--detector goldilocks] [--base REV]
 *
 * Runs bench/startup/workers.mjs, which starts N workers (default 5) one after the other and times each from
 * `new Worker()` to its first message, R times (default 5) in each mode, interleaved: `plain` (`node workers.mjs`),
 * `hooks` (`node --require bench/startup/hooks-only.cjs workers.mjs`: ES module loader hooks that do nothing,
 * registered in each thread as the runtime registers its own: Node 20's part of the cost, the floor for any tool
 * that instruments ES modules in workers), `cold` (`goldilocks run` with an empty transform cache,
 * `src/node/cache.ts`, in a fresh directory per run) and `warm` (`goldilocks run` with the cache filled by an earlier
 * run); with `--base REV`, also `warm@base`: git revision REV's build (bench/revision.ts), its cache warm. Prints per
 * mode the median worker start (ms) over all workers of all runs, its minimum, and the difference to plain. A timing
 * benchmark: run it on a quiet machine (`npm run build` first).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../scripts/child.js';
import { buildRevision } from './revision.js';

const PROGRAM = path.join(ROOT, 'bench', 'startup', 'workers.mjs');
const HOOKS_ONLY = path.join(ROOT, 'bench', 'startup', 'hooks-only.cjs');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');

/**
 * The per-worker start times of one run of the program: under `goldilocks run` of the CLI `cli` with GOLDILOCKS_CACHE
 * `cache`, or under plain node (`cli` undefined) with the node arguments `nodeArgs`.
 */
function once(
  workers: number,
  detector: string,
  cli: string | undefined,
  cache?: string,
  nodeArgs: string[] = [],
): number[] {
  const args =
    cli === undefined
      ? [...nodeArgs, PROGRAM, String(workers)]
      : [cli, 'run', '--detector', detector, PROGRAM, String(workers)];
  const out = execFileSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...(cache === undefined ? {} : { GOLDILOCKS_CACHE: cache }) },
  });
  const line = out
    .trim()
    .split('\n')
    .findLast((l) => l.startsWith('{"startMs"'));
  if (line === undefined) throw new Error(`no result line in: ${out}`);
  return (JSON.parse(line) as { startMs: number[] }).startMs;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function main(): void {
  const { values } = parseArgs({
    options: {
      workers: { type: 'string', default: '5' },
      repeat: { type: 'string', default: '5' },
      detector: { type: 'string', default: 'goldilocks' },
      base: { type: 'string' },
    },
  });
  const baseCli =
    values.base === undefined ? undefined : path.join(buildRevision(values.base).dist, 'cli', 'main.js');
  const workers = Number(values.workers);
  const repeat = Number(values.repeat);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-worker-start-'));
  try {
    const warmCache = path.join(dir, 'warm');
    const baseCache = path.join(dir, 'warm-base');
    once(1, values.detector, CLI, warmCache); // fills the warm caches
    if (baseCli) once(1, values.detector, baseCli, baseCache);
    const times: Record<string, number[]> = { plain: [], hooks: [], cold: [], warm: [] };
    if (baseCli) times['warm@base'] = [];
    for (let r = 0; r < repeat; r++) {
      times.plain.push(...once(workers, values.detector, undefined));
      times.hooks.push(...once(workers, values.detector, undefined, undefined, ['--require', HOOKS_ONLY]));
      times.cold.push(...once(workers, values.detector, CLI, path.join(dir, `cold-${r}`)));
      times.warm.push(...once(workers, values.detector, CLI, warmCache));
      if (baseCli) times['warm@base'].push(...once(workers, values.detector, baseCli, baseCache));
    }
    const plain = median(times.plain);
    console.log(`worker start-up, ${workers} workers × ${repeat} runs per mode (${os.cpus().length} cpus):`);
    for (const [mode, ts] of Object.entries(times)) {
      const m = median(ts);
      const delta = mode === 'plain' ? '' : `  (+${(m - plain).toFixed(1)} ms over plain)`;
      console.log(
        `  ${mode.padEnd(9)} median ${m.toFixed(1)} ms, min ${Math.min(...ts).toFixed(1)} ms${delta}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
