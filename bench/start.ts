/**
 * Start-up benchmark (issue 21 §4): the wall time of `goldilocks --help`, `goldilocks check --help`, and of
 * `goldilocks check` (text and `--json`) and `goldilocks convert` on a one-line trace, beside `node -e ''` (the floor:
 * Node's own start), with what each loads.
 *
 *   npm run bench:start -- [--runs N] [--instructions] [--json FILE]
 *
 * Every run is a fresh process of the built CLI (dist/cli/main.js; `npm run bench:start` builds first), its
 * output discarded. The commands alternate within each of the N rounds (default 20), `node -e ''` first in each, so
 * that a change in the machine's load falls on all of them alike; one round of each runs first, unmeasured (disk
 * cache). Printed per command: the median, minimum and maximum milliseconds, the ratio of its median to
 * `node -e ''`'s, and what explains it: the modules it loads — ES modules and CommonJS files of the project (dist/)
 * and of packages (node_modules/), with their bytes — logged by one more run under the preload
 * test/fixtures/log-loads.mjs (which test/cli/start.test.ts uses). A command that exits with another code than 0
 * stops the benchmark.
 *
 * With `--instructions`, each command also runs once under valgrind's cachegrind with `node --single-threaded`
 * (no compiler or GC threads), and its count of executed instructions ("I refs") and ratio to `node -e ''`'s are
 * printed: on a loaded machine, where wall times vary by 2× from run to run, the count still repeats (as in
 * bench/instructions.ts; it leaves out the work of those threads, so its ratios are lower than the times'). Node's
 * built-in modules then count more than in a plain start: their code cache, embedded in the node binary, is made
 * for the default flags, and with `--single-threaded` Node compiles them from source instead (`goldilocks check`
 * of a one-line trace: 803M instructions with the flag, 713M without, all threads counted; 2026-11-25). Needs
 * valgrind.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { describeMachine, ROOT } from '../scripts/child.js';
import { countInstructions } from './cachegrind.js';

const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    instructions: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs: expected a positive integer, found '${values.runs}'`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-start-'));
const trace = path.join(dir, 'one.std');
writeFileSync(trace, 'T0|w(x)|1\n');

/** Name (as printed) → arguments of `node`. */
const COMMANDS: [string, string[]][] = [
  ["node -e ''", ['-e', '']],
  ['goldilocks --help', [CLI, '--help']],
  ['goldilocks check --help', [CLI, 'check', '--help']],
  ['goldilocks check one.std', [CLI, 'check', trace]],
  ['goldilocks check --json one.std', [CLI, 'check', '--json', trace]],
  ['goldilocks convert one.std', [CLI, 'convert', trace]],
];

/** Runs `node args` once. @returns its wall time in milliseconds. @throws Error when it does not exit with 0. */
function time(name: string, args: string[]): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0)
    throw new Error(`${name}: exit code ${r.status ?? r.signal}: ${r.stderr.toString().trim()}`);
  return ms;
}

/** What a run loads, from the repository (dist/) and from packages (node_modules/): files and their bytes. */
interface Loaded {
  project: number;
  projectBytes: number;
  packages: number;
  packageBytes: number;
}

const PRELOAD = pathToFileURL(path.join(ROOT, 'test', 'fixtures', 'log-loads.mjs')).href;

/** Runs `node args` once under the preload that logs every module loaded. @returns what it loaded. */
function loaded(name: string, args: string[]): Loaded {
  const log = path.join(dir, 'loads.txt');
  rmSync(log, { force: true });
  const r = spawnSync(process.execPath, ['--import', PRELOAD, ...args], {
    cwd: dir,
    env: { ...process.env, LOG_LOADS: log },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (r.status !== 0)
    throw new Error(`${name}: exit code ${r.status ?? r.signal}: ${r.stderr.toString().trim()}`);
  const files = new Set<string>();
  for (const line of existsSync(log) ? readFileSync(log, 'utf8').split('\n') : []) {
    if (line.startsWith('file:')) files.add(fileURLToPath(line));
    else if (line.startsWith('/')) files.add(line);
  }
  const l: Loaded = { project: 0, projectBytes: 0, packages: 0, packageBytes: 0 };
  for (const f of files) {
    if (f === fileURLToPath(PRELOAD) || f.endsWith('log-loads-hook.mjs')) continue;
    if (f.includes(`${path.sep}node_modules${path.sep}`)) {
      l.packages++;
      l.packageBytes += statSync(f).size;
    } else if (f.startsWith(path.join(ROOT, 'dist') + path.sep)) {
      l.project++;
      l.projectBytes += statSync(f).size;
    }
  }
  return l;
}

const samples = COMMANDS.map((): number[] => []);
let loads: Loaded[];
let instructions: number[] | undefined;
try {
  for (const [name, args] of COMMANDS) time(name, args);
  for (let i = 0; i < runs; i++)
    for (const [c, [name, args]] of COMMANDS.entries()) samples[c].push(time(name, args));
  loads = COMMANDS.map(([name, args]) => loaded(name, args));
  if (values.instructions) instructions = COMMANDS.map(([, args]) => countInstructions(args, dir));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const floor = median(samples[0]);
const rows = COMMANDS.map(([name], c) => ({
  command: name,
  medianMs: median(samples[c]),
  minMs: Math.min(...samples[c]),
  maxMs: Math.max(...samples[c]),
  ratio: median(samples[c]) / floor,
  loaded: loads[c],
  ...(instructions ? { instructions: instructions[c] } : {}),
}));
const kB = (bytes: number): string => (bytes / 1000).toFixed(0);
console.log(`${describeMachine()}; ${runs} runs of each, alternating; wall time in ms`);
console.log(
  `| command | median | min | max | × node -e '' | modules: project (kB) | packages (kB) |${instructions ? " instructions | × node -e '' |" : ''}`,
);
console.log(`|---|---:|---:|---:|---:|---:|---:|${instructions ? '---:|---:|' : ''}`);
for (const r of rows) {
  const counted =
    r.instructions === undefined
      ? ''
      : ` ${r.instructions.toLocaleString('en-US')} | ${(r.instructions / instructions![0]).toFixed(2)} |`;
  const l = r.loaded;
  console.log(
    `| \`${r.command}\` | ${r.medianMs.toFixed(1)} | ${r.minMs.toFixed(1)} | ${r.maxMs.toFixed(1)} | ${r.ratio.toFixed(2)} | ${l.project} (${kB(l.projectBytes)}) | ${l.packages} (${kB(l.packageBytes)}) |${counted}`,
  );
}
if (values.json)
  writeFileSync(values.json, `${JSON.stringify({ runs, machine: describeMachine(), rows }, null, 2)}\n`);
