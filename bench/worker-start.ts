/**
 * Worker start-up, plain vs under the live runtime (issue 24 §2: "a worker under the runtime starts within 50 ms of a
 * plain one"):
 *
 *   npm run bench:worker-start -- [--workers N] [--repeat R] [--entry esm,cjs] [--detector goldilocks] [--base REV]
 *
 * Runs bench/startup/workers.mjs, which starts N workers (default 5) one after the other and times each from
 * `new Worker()` to its first message, R times (default 5) in each mode, interleaved, for each kind of worker entry
 * (`--entry`, default both): `esm` (an ES module: the runtime registers its ES module loader hooks in the worker) and
 * `cjs` (a CommonJS file: the runtime starts the worker without them, src/node/lazy-esm.ts). Modes: `plain`
 * (`node workers.mjs`), `hooks` (`node --require bench/startup/hooks-only.cjs workers.mjs`: ES module loader hooks
 * that do nothing, registered in each thread as the runtime registers its own: Node 20's part of the cost, the floor
 * for any tool that instruments ES modules in workers), `cold` (`goldilocks run` with an empty transform cache,
 * `src/node/cache.ts`, in a fresh directory per run) and `warm` (`goldilocks run` with the cache filled by an earlier
 * run); with `--base REV`, also `warm@base`: git revision REV's build (bench/revision.ts), its cache warm. Prints per
 * entry and mode the median worker start (ms) over all workers of all runs, its minimum, the difference to plain, the
 * median CPU time of a run (ms, user + system of the whole process: less noisy than wall time on a loaded host) and
 * the most threads a run had while a worker ran. A timing benchmark: run it on a quiet machine (`npm run build` first).
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

/** What one run of the program printed: per-worker start (ms), the most threads, the process's CPU time (ms). */
interface Run {
  startMs: number[];
  threads: number;
  cpuMs: number;
}

/**
 * One run of the program with `workers` workers of entry `entry` (`esm` or `cjs`): under `goldilocks run` of the CLI
 * `cli` with GOLDILOCKS_CACHE `cache`, or under plain node (`cli` undefined) with the node arguments `nodeArgs`.
 */
function once(
  workers: number,
  entry: string,
  detector: string,
  cli: string | undefined,
  cache?: string,
  nodeArgs: string[] = [],
): Run {
  const program = [PROGRAM, String(workers), entry];
  const args =
    cli === undefined ? [...nodeArgs, ...program] : [cli, 'run', '--detector', detector, ...program];
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
  return JSON.parse(line) as Run;
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
      entry: { type: 'string', default: 'esm,cjs' },
      detector: { type: 'string', default: 'goldilocks' },
      base: { type: 'string' },
    },
  });
  const baseCli =
    values.base === undefined ? undefined : path.join(buildRevision(values.base).dist, 'cli', 'main.js');
  const workers = Number(values.workers);
  const repeat = Number(values.repeat);
  const entries = values.entry.split(',');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-worker-start-'));
  try {
    const warmCache = path.join(dir, 'warm');
    const baseCache = path.join(dir, 'warm-base');
    for (const entry of entries) {
      once(1, entry, values.detector, CLI, warmCache); // fills the warm caches
      if (baseCli) once(1, entry, values.detector, baseCli, baseCache);
    }
    const modes = ['plain', 'hooks', 'cold', 'warm', ...(baseCli ? ['warm@base'] : [])];
    const runs = new Map(entries.flatMap((e) => modes.map((m) => [`${e} ${m}`, [] as Run[]])));
    for (let r = 0; r < repeat; r++) {
      for (const entry of entries) {
        const add = (mode: string, run: Run) => runs.get(`${entry} ${mode}`)?.push(run);
        add('plain', once(workers, entry, values.detector, undefined));
        add('hooks', once(workers, entry, values.detector, undefined, undefined, ['--require', HOOKS_ONLY]));
        add('cold', once(workers, entry, values.detector, CLI, path.join(dir, `cold-${entry}-${r}`)));
        add('warm', once(workers, entry, values.detector, CLI, warmCache));
        if (baseCli) add('warm@base', once(workers, entry, values.detector, baseCli, baseCache));
      }
    }
    console.log(`worker start-up, ${workers} workers × ${repeat} runs per mode (${os.cpus().length} cpus):`);
    for (const entry of entries) {
      const plain = median((runs.get(`${entry} plain`) ?? []).flatMap((x) => x.startMs));
      for (const mode of modes) {
        const rs = runs.get(`${entry} ${mode}`) ?? [];
        const ts = rs.flatMap((x) => x.startMs);
        const m = median(ts);
        const delta = mode === 'plain' ? '' : `  (+${(m - plain).toFixed(1)} ms over plain)`;
        const cpu = median(rs.map((x) => x.cpuMs));
        const threads = Math.max(...rs.map((x) => x.threads));
        console.log(
          `  ${entry} ${mode.padEnd(9)} median ${m.toFixed(1)} ms, min ${Math.min(...ts).toFixed(1)} ms, ` +
            `cpu ${cpu.toFixed(0)} ms/run, ${threads} threads${delta}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
