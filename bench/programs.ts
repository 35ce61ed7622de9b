/**
 * Programs written apart from this project's kernels, plain node against `goldilocks run` (issue 24: its opening
 * example is bench/programs/sor-flat.mjs):
 *
 *   node --import tsx bench/programs.ts [--repeat R] [--base REV] [--detector D] [--keep-extra-ca-certs]
 *     [FILE [ARGS...]]
 *
 * Runs FILE with ARGS (default: every bench/programs/*.mjs, without arguments) R times (default 3) in each mode,
 * alternating, in an order rotated each time (bench/timing.ts `rotation`): `plain` (`node FILE ARGS`), `goldilocks`
 * (`goldilocks run --detector D FILE ARGS`, this checkout's build: `npm run build` first) and, with `--base REV`,
 * `goldilocks@base` (git revision REV's build, bench/revision.ts).
 * A program must print the same under the runtime as under plain node (else the run stops with an error). Prints per
 * program and mode the median wall seconds of the whole process (start-up included), its range, the median
 * processor seconds (user + system: less noisy on a loaded host) and both as ratios to plain. A mode whose runs fail
 * (exit status not 0: a build that runs out of memory, say) is shown failed, with its status and wall seconds, its
 * stderr's end printed; the benchmark goes on and, when a mode other than `goldilocks@base` failed, exits with 1 at the
 * end. A timing benchmark: run
 * it on a quiet machine. Every mode runs without the host's `NODE_EXTRA_CA_CERTS` unless `--keep-extra-ca-certs`
 * (bench/timing.ts `timedEnv`: Node parses the certificates it names as each process starts).
 */
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, ROOT } from '../scripts/child.js';
import { buildRevision } from './revision.js';
import { median, type Run, rotation, timed, timedEnv, timedEnvNote } from './timing.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    repeat: { type: 'string', default: '3' },
    base: { type: 'string' },
    detector: { type: 'string', default: 'goldilocks' },
    'keep-extra-ca-certs': { type: 'boolean', default: false },
  },
});
const keepCaCerts = values['keep-extra-ca-certs'];
const env = timedEnv(keepCaCerts);
const repeat = Number(values.repeat);
if (!Number.isInteger(repeat) || repeat < 1)
  throw new Error(`--repeat ${values.repeat}: expected a positive integer`);
const dir = path.join(ROOT, 'bench', 'programs');
const programs: string[][] =
  positionals.length > 0
    ? [positionals]
    : readdirSync(dir)
        .filter((f) => f.endsWith('.mjs'))
        .sort()
        .map((f) => [path.join(dir, f)]);

const modes: { name: string; args: (p: string[]) => string[] }[] = [
  { name: 'plain', args: (p) => p },
  {
    name: 'goldilocks',
    args: (p) => [path.join(ROOT, 'dist', 'cli', 'main.js'), 'run', '--detector', values.detector, ...p],
  },
];
if (values.base !== undefined) {
  const cli = path.join(buildRevision(values.base).dist, 'cli', 'main.js');
  modes.push({ name: 'goldilocks@base', args: (p) => [cli, 'run', '--detector', values.detector, ...p] });
}

const lines = [
  `Programs, plain node vs goldilocks run (bench/programs.ts; ${describeMachine()}; ` +
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${repeat} runs per mode, alternating)`,
  '',
  '| program | mode | wall s (median) | min–max s | CPU s (median) | wall ÷ plain | CPU ÷ plain |',
  '|---|---|---:|---:|---:|---:|---:|',
];
/** Failed modes other than the base's (the exit status of this benchmark). */
let failures = 0;
for (const program of programs) {
  const runs = new Map<string, Run[]>(modes.map((m) => [m.name, []]));
  for (let r = 0; r < repeat; r++)
    for (const i of rotation(modes.length, r)) {
      const m = modes[i];
      const run = timed(process.execPath, m.args(program), () => true, env);
      runs.get(m.name)?.push(run);
      const outcome =
        run.status === 0 ? '' : ` (failed: exit ${run.status ?? run.signal})\n${run.stderrTail}`;
      process.stderr.write(`${path.basename(program[0])} ${m.name}: ${run.seconds.toFixed(2)} s${outcome}\n`);
    }
  const plainOut = runs.get('plain')?.[0].stdout;
  for (const m of modes)
    for (const run of runs.get(m.name) ?? [])
      if (run.status === 0 && run.stdout !== plainOut)
        throw new Error(
          `${program.join(' ')}: ${m.name} printed\n${run.stdout}\nplain node printed\n${plainOut}`,
        );
  const plainWall = median((runs.get('plain') ?? []).map((x) => x.seconds));
  const plainCpu = median((runs.get('plain') ?? []).map((x) => x.cpuSeconds));
  for (const m of modes) {
    const rs = runs.get(m.name) ?? [];
    const failed = rs.filter((x) => x.status !== 0);
    if (failed.length > 0) {
      if (m.name !== 'goldilocks@base') failures++;
      const statuses = [...new Set(failed.map((x) => x.status ?? x.signal))].join(', ');
      lines.push(
        `| ${[path.relative(ROOT, program[0]), ...program.slice(1)].join(' ')} | ${m.name} | failed (exit ` +
          `${statuses}) in ${failed.length} of ${rs.length} runs, after ${median(failed.map((x) => x.seconds)).toFixed(2)} s (median) | | | | |`,
      );
      continue;
    }
    const wall = median(rs.map((x) => x.seconds));
    const cpu = median(rs.map((x) => x.cpuSeconds));
    const walls = rs.map((x) => x.seconds);
    lines.push(
      `| ${[path.relative(ROOT, program[0]), ...program.slice(1)].join(' ')} | ${m.name} | ${wall.toFixed(2)} | ` +
        `${Math.min(...walls).toFixed(2)}–${Math.max(...walls).toFixed(2)} | ${cpu.toFixed(2)} | ` +
        `${(wall / plainWall).toFixed(1)} | ${(cpu / plainCpu).toFixed(1)} |`,
    );
  }
}
const note = timedEnvNote(keepCaCerts);
if (note !== undefined) lines.push('', note);
process.stdout.write(`${lines.join('\n')}\n`);
if (failures > 0) process.exitCode = 1;
