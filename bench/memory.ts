/**
 * Memory benchmark of the live runtime (issue 21 §2, PLDI'07 §5.4): peak RSS of a program doing N synchronization
 * operations under `goldilocks run`, at a small and a large N. With the synchronization event list collected,
 * the peak does not grow with N: the issue's bound is peak(10M) ≤ 1.25 × peak(1M).
 *
 *   npm run bench:memory -- [--programs atomics,mutex] [--sizes 1000000,10000000] [--detector goldilocks]
 *                           [--base REV] [--timeout S]
 *
 * Programs (bench/memory/): `atomics` = atomics-loop.mjs (N `Atomics.add` in two workers, each followed by plain
 * accesses), `mutex` = mutex-loop.mjs (N lock/unlock pairs of a goldilocks/sync Mutex around a shared counter).
 * Each run is a fresh process; its peak RSS is `process.resourceUsage().maxRSS` of the program's process (worker
 * threads included), written at exit by bench/maxrss-preload.mjs (through NODE_OPTIONS). Printed per program and
 * N: peak RSS (MiB), the list's cells (`syncCells`), its peak of live cells (`listPeak`) and the cells collected,
 * from the JSON report; then the ratio of the largest N's peak to the smallest's. `--base REV` measures git
 * revision REV's build too (bench/revision.ts; the programs are copied into its tree, so that `goldilocks/sync`
 * resolves to its build). Memory, not time: the figures do not depend on the machine's load.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT } from '../scripts/child.js';
import { buildRevision } from './revision.js';

const PROGRAMS: Record<string, string> = { atomics: 'atomics-loop.mjs', mutex: 'mutex-loop.mjs' };
const PRELOAD = path.join(ROOT, 'bench', 'maxrss-preload.mjs');

interface Measure {
  kib: number;
  stats: Record<string, number>;
}

/** Runs `program` (a path under `tree`) with argument `n` under `tree`'s `goldilocks run`. */
function measure(
  tree: string,
  program: string,
  n: number,
  detector: string,
  timeoutS: number,
): Promise<Measure> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-memory-'));
  const rssFile = path.join(dir, 'rss.jsonl');
  const report = path.join(dir, 'report.json');
  const args = [path.join(tree, 'dist', 'cli', 'main.js'), 'run', '--report', report, '--detector', detector];
  args.push(path.join(tree, 'bench', 'memory', program), String(n));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: tree,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: timeoutS * 1000,
      env: {
        ...process.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(PRELOAD).href}`.trim(),
        GOLDILOCKS_BENCH_MAXRSS: rssFile,
      },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('exit', (code, signal) => {
      try {
        if (code !== 0) throw new Error(`${program} ${n}: exit ${code ?? signal}\n${stderr}`);
        const lines = readFileSync(rssFile, 'utf8').trim().split('\n');
        const mine = lines
          .map((l) => JSON.parse(l) as { script: string; maxRSSKiB: number })
          .filter((l) => l.script.endsWith(program));
        if (mine.length !== 1) throw new Error(`${program} ${n}: no peak RSS line in ${lines.join(' | ')}`);
        const stats = (JSON.parse(readFileSync(report, 'utf8')) as { stats: Record<string, number> }).stats;
        resolve({ kib: mine[0].maxRSSKiB, stats });
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      programs: { type: 'string', default: Object.keys(PROGRAMS).join(',') },
      sizes: { type: 'string', default: '1000000,10000000' },
      detector: { type: 'string', default: 'goldilocks' },
      base: { type: 'string' },
      timeout: { type: 'string', default: '1800' },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const trees: [string, string][] = [['this tree', ROOT]];
  if (values.base !== undefined) {
    const { sha, dist } = buildRevision(values.base);
    const tree = path.dirname(dist);
    mkdirSync(path.join(tree, 'bench', 'memory'), { recursive: true });
    for (const p of Object.values(PROGRAMS))
      copyFileSync(path.join(ROOT, 'bench', 'memory', p), path.join(tree, 'bench', 'memory', p));
    trees.push([`base ${sha.slice(0, 7)}`, tree]);
  }
  for (const [label, tree] of trees) {
    for (const name of values.programs.split(',')) {
      const program = PROGRAMS[name];
      if (program === undefined)
        throw new Error(`unknown program ${name} (${Object.keys(PROGRAMS).join(', ')})`);
      const peaks: number[] = [];
      for (const n of sizes) {
        const m = await measure(tree, program, n, values.detector, Number(values.timeout));
        peaks.push(m.kib);
        const s = m.stats;
        console.log(
          `${label}  ${name}  N=${n}: peak RSS ${(m.kib / 1024).toFixed(1)} MiB; list: ${s.syncCells} cells, ` +
            `peak ${s.listPeak ?? '-'} live, ${s.cellsCollected ?? '-'} collected, ${s.eagerRuns ?? '-'} eager runs`,
        );
      }
      const ratio = peaks[peaks.length - 1] / peaks[0];
      console.log(`${label}  ${name}: peak RSS N=${sizes.at(-1)} / N=${sizes[0]} = ${ratio.toFixed(2)}×`);
    }
  }
}

await main();
