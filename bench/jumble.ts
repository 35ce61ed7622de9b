/**
 * The cost of adversarial memory (issue 22 §5; Flanagan & Freund, PLDI'10 §6.2, Figure 10: "the Sequentially-
 * Consistent configuration ... measures the overhead of the instrumentation alone").
 *
 * (a) Wall time of one process per run, on the paper's programs of `examples/jumble/` (docs/RESULTS.md, "Adversarial
 * memory") and one array-heavy kernel (`bench/kernels/sor.mjs --workers 2 --size tiny`), in five configurations:
 * - `node`: plain node;
 * - `run`: `goldilocks run` (the default detector);
 * - `run-ft`: `goldilocks run --detector fasttrack` (the detector whose vector clocks adversarial memory uses);
 * - `sc-group`: `goldilocks run --jumble sc --jumble-locations <one group>`, a run of a campaign (`goldilocks jumble`
 *   jumbles one group per run: an allocation site + offset + size, the paper's one field at a time);
 * - `sc-all`: `goldilocks run --jumble sc`, every element location jumbled.
 * With `--base REV`, also `sc-group@base` and `sc-all@base`: the same with git revision REV's build (bench/revision.ts).
 * One untimed warm-up run of each (it fills the transform cache), then `--reps` rounds, each running every
 * configuration once in a rotated order (interleaved, so the machine's load falls on all alike); the figure of a
 * configuration is its median. Printed as a Markdown table with the ratios to `run` (issue 22 §5: the SC configuration
 * within 1.5× of `goldilocks run`) and to plain node.
 *
 * (b) One campaign, `goldilocks jumble --runs N --jobs J` (default 100 runs, J the machine's cores) on a small
 * program with one racy group (default `examples/jumble/mtrt.mjs`: 6 configurations × N runs): wall time, runs per
 * second, jobs, and whether every run was instrumented from the transform cache: the campaign uses a fresh cache
 * directory (`GOLDILOCKS_CACHE`) warmed by one `goldilocks run` of the program, and the bench checks that no entry
 * was written during the campaign (an entry is written only on a miss: `src/node/cache.ts`).
 *
 *   npm run bench:jumble -- [--reps N] [--programs figure2-dcl,sor,...] [--runs N] [--jobs J]
 *                           [--campaign PROGRAM] [--no-campaign] [--no-timing] [--base REV] [--out FILE]
 */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { describeMachine, ROOT } from '../scripts/child.js';
import { buildRevision } from './revision.js';

const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const EXAMPLES = path.join(ROOT, 'examples', 'jumble');
const KERNELS = path.join(ROOT, 'bench', 'kernels');

/** A program of (a): its arguments (entry first) and the one group its `sc-group` runs jumble (a locations line). */
interface Program {
  name: string;
  args: string[];
  group: string;
}

/** The groups are the campaign's (docs/RESULTS.md, the Figure 9 table): allocation site + offset / size. */
/** A program of `examples/jumble/` whose group is `site` (line:column+offset/size) of its own file. */
const example = (name: string, site: string): Program => {
  const file = path.join(EXAMPLES, `${name}.mjs`);
  return { name, args: [file], group: `${file}:${site}` };
};
const PROGRAMS: Program[] = [
  example('figure2-dcl', '13:28+16/8'),
  example('sor', '21:33+32/8'),
  example('raytracer', '16:30+0/8'),
  example('tsp', '16:30+0/4'),
  example('mtrt', '8:31+0/4'),
  {
    name: 'kernel sor (2 workers, tiny)',
    args: [path.join(KERNELS, 'sor.mjs'), '--workers', '2', '--size', 'tiny'],
    // a grid cell: every buffer made by `shared()` of bench/kernels/lib.mjs, byte 8
    group: `${path.join(KERNELS, 'lib.mjs')}:65:19+8/8`,
  },
];

const CONFIGS = ['node', 'run', 'run-ft', 'sc-group', 'sc-all'] as const;
/** A configuration, or a jumbled one run with the `--base` revision's build. */
type Config = (typeof CONFIGS)[number] | 'sc-group@base' | 'sc-all@base';

const USAGE = `usage: npm run bench:jumble -- [options]
  --reps N           timed rounds per program (default 5; the median is shown)
  --programs A,B     of ${PROGRAMS.map((p) => p.name.split(' ')[0]).join(', ')} (default all; 'kernel' is the sor kernel)
  --runs N           runs per configuration of the campaign (default 100)
  --jobs J           the campaign's --jobs (default ${os.availableParallelism()}, the cores)
  --campaign FILE    the campaign's program (default examples/jumble/mtrt.mjs)
  --no-campaign      skip (b);  --no-timing: skip (a)
  --base REV         also time sc-group and sc-all with git revision REV's build (bench/revision.ts)
  --out FILE         append the Markdown report to FILE
`;

/** Runs `argv` (a node command line) with `env`; its wall time in ms and exit code. */
function timed(argv: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, argv, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 && code !== 1)
        process.stderr.write(`bench:jumble: ${argv.join(' ')} exited ${code}:\n${stderr}`);
      resolve({ ms: performance.now() - start, code });
    });
  });
}

/** The node command line of configuration `c` on program `p`; `locations` a file naming p's group. */
function argvOf(c: Config, p: Program, locations: string, baseCli: string): string[] {
  if (c.endsWith('@base'))
    return [baseCli, ...argvOf(c.slice(0, -'@base'.length) as Config, p, locations, baseCli).slice(1)];
  switch (c) {
    case 'node':
      return p.args;
    case 'run':
      return [CLI, 'run', ...p.args];
    case 'run-ft':
      return [CLI, 'run', '--detector', 'fasttrack', ...p.args];
    case 'sc-group':
      return [CLI, 'run', '--jumble', 'sc', '--jumble-locations', locations, ...p.args];
    default:
      return [CLI, 'run', '--jumble', 'sc', ...p.args];
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x: number): string => Math.round(x).toLocaleString('en-US');
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
const load = (): string =>
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`;

/**
 * (a): the Markdown table of the configurations' median wall times (`baseCli`: the `--base` revision's CLI, which
 * adds `sc-group@base` and `sc-all@base`), with the ratios of the jumbled ones to `run`.
 */
async function timing(programs: Program[], reps: number, tmp: string, baseCli?: string): Promise<string[]> {
  const env = { ...process.env };
  const configs: Config[] = [...CONFIGS, ...(baseCli ? (['sc-group@base', 'sc-all@base'] as const) : [])];
  const jumbled = configs.filter((c) => c.startsWith('sc-'));
  const columns = [...configs, ...jumbled.map((c) => `${c} / run`), 'sc-group / run-ft', 'run / node'];
  const lines = [
    `(a) wall time per process, median of ${reps} interleaved rounds (ms; ${load()} at the start)`,
    '',
    `| program | ${columns.join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
  ];
  for (const [k, p] of programs.entries()) {
    const locations = path.join(tmp, `group${k}.locations`);
    writeFileSync(locations, `${p.group}\n`);
    const argv = (c: Config) => argvOf(c, p, locations, baseCli ?? CLI);
    const times = new Map<Config, number[]>(configs.map((c) => [c, []]));
    for (const c of configs) await timed(argv(c), env); // warm-up: the transform cache
    for (let r = 0; r < reps; r++)
      for (let j = 0; j < configs.length; j++) {
        const c = configs[(j + r) % configs.length];
        times.get(c)?.push((await timed(argv(c), env)).ms);
      }
    const m = (c: Config): number => median(times.get(c) ?? []);
    const cells = [
      ...configs.map((c) => ms(m(c))),
      ...jumbled.map((c) => ratio(m(c), m('run'))),
      ratio(m('sc-group'), m('run-ft')),
      ratio(m('run'), m('node')),
    ];
    const line = `| ${p.name} | ${cells.join(' | ')} |`;
    process.stderr.write(`${line}\n`);
    lines.push(line);
  }
  lines.push('', `(${load()} at the end)`);
  return lines;
}

/** The cache directory's entries and their modification times (ns). */
function entries(dir: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const f of readdirSync(dir)) out.set(f, statSync(path.join(dir, f), { bigint: true }).mtimeNs);
  return out;
}

/** (b): one campaign of 6 configurations × `runs` runs. */
async function campaign(program: string, runs: number, jobs: number, tmp: string): Promise<string[]> {
  const cache = path.join(tmp, 'cache');
  const env = { ...process.env, GOLDILOCKS_CACHE: cache };
  const warm = await timed([CLI, 'run', program], env);
  const before = entries(cache);
  const json = path.join(tmp, 'campaign.json');
  const startLoad = load();
  const r = await timed(
    [CLI, 'jumble', '--runs', String(runs), '--jobs', String(jobs), '--no-progress', '--json', json, program],
    env,
  );
  const after = entries(cache);
  const written = [...after].filter(([f, t]) => before.get(f) !== t).length;
  const report = JSON.parse(readFileSync(json, 'utf8')) as { groups: unknown[] };
  const total = 6 * runs * report.groups.length;
  return [
    `(b) campaign: goldilocks jumble --runs ${runs} --jobs ${jobs} ${path.relative(ROOT, program)} (${startLoad} at the start, ${load()} at the end)`,
    '',
    '| groups | runs | wall time | runs / s | jobs | transform cache | exit code |',
    '|---:|---:|---:|---:|---:|---|---:|',
    `| ${report.groups.length} | ${total} (+1 detection) | ${(r.ms / 1000).toFixed(1)} s | ${(total / (r.ms / 1000)).toFixed(2)} | ${jobs} | ${before.size} entries warmed by one run (${ms(warm.ms)} ms); ${written === 0 ? 'none written during the campaign: every run hit it' : `${written} written during the campaign (misses)`} | ${r.code} |`,
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reps: { type: 'string', default: '5' },
      programs: { type: 'string' },
      runs: { type: 'string', default: '100' },
      jobs: { type: 'string', default: String(os.availableParallelism()) },
      campaign: { type: 'string', default: path.join(EXAMPLES, 'mtrt.mjs') },
      'no-campaign': { type: 'boolean', default: false },
      'no-timing': { type: 'boolean', default: false },
      base: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const wanted = values.programs?.split(',');
  const programs = PROGRAMS.filter((p) => wanted === undefined || wanted.includes(p.name.split(' ')[0]));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-bench-jumble-'));
  try {
    const out = [`## bench:jumble (${new Date().toISOString()}; ${describeMachine()})`, ''];
    const baseCli = values.base ? path.join(buildRevision(values.base).dist, 'cli', 'main.js') : undefined;
    if (!values['no-timing']) out.push(...(await timing(programs, Number(values.reps), tmp, baseCli)), '');
    if (!values['no-campaign'])
      out.push(
        ...(await campaign(path.resolve(values.campaign), Number(values.runs), Number(values.jobs), tmp)),
        '',
      );
    const text = out.join('\n');
    process.stdout.write(`${text}\n`);
    if (values.out) appendFileSync(values.out, `${text}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
