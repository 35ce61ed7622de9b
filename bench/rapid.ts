/**
 * Goldilocks against RAPID's FastTrack (`HBEpoch`) end to end (issue 24 §3): both tools check the same
 * realistic STD trace, each run a fresh process including its start-up, side by side in one run.
 *
 *   npm run bench:rapid -- [--rapid DIR|JAR] [--events 2M,20M] [--reps 3] [--warmup 1] [--base REV] [--seed 1]
 *
 * The traces are made by bench/generate.ts with `--preset realistic` (issue 24's mix, RAPID's STD subset: 8
 * worker threads, 10,000 variables, 100 locks, no volatiles, ~80% of the accesses thread-local, shared data
 * lock-protected or read-only, rare races; integer locations), once, into bench/out/ (gitignored), and reused.
 * Per size and repetition the commands alternate, in an order rotated each repetition (bench/timing.ts `rotation`) —
 * `goldilocks check FILE` (the package's `bin`, dist/cli/main.cjs, the user's command; default text report), the
 * same of the `--base` revision's build if given (its own `bin`: bench/revision.ts), then `java -cp …
 * HBEpoch -f std -p FILE` (its default verbosity: the location of each racy event) — so that a change in the
 * machine's load falls on all of them alike; the medians are printed as a Markdown table: wall seconds, processor
 * seconds (user + system, all threads: what a loaded host changes less than the wall time) and peak RSS (both from
 * GNU time, "n/a" without /usr/bin/time), the races each found, and RAPID's times over Goldilocks' (the target: ≥
 * 10, wall), by the medians and, per repetition, the lowest and highest of RAPID's run over the command's in the same
 * repetition (issue 24 §3 asks for 10× in every run). Before the timed repetitions each command runs `--warmup`
 * times, untimed, in the same rotation (hyperfine's `--warmup`): on this project's machine the first process after
 * an idle spell runs slower by a fixed ~0.2 s of processor time (0.84 s against 0.65 s for `goldilocks check` of the
 * 2M-event trace after 20 s idle; 0.67 s when a 1 s busy loop ran first: the host's processor waking, not a cache of
 * either tool), which fell on whichever command came first. Both tools run without the host's `NODE_EXTRA_CA_CERTS` unless `--keep-extra-ca-certs` (bench/timing.ts
 * `timedEnv`: Node parses the certificates it names as each process starts, ~30 ms on this project's machine; Java
 * does not read it), and the output says which.
 *
 * Races. Goldilocks counts racy variables, racy events (accesses that race with an earlier one) and racy locations;
 * RAPID counts "racy events" (accesses at which HBEpoch detects a race: at most one per access) and "racy lines"
 * (their locations). Both are precise for happens-before, so the racy variables must be the same set: on traces of
 * at most `--variables-max` events (default 2M) one more, untimed, run of each — `goldilocks check --json` and
 * RAPID with `-v 1`, which prints every access with its variable (8× slower, hence not timed) and each racy event —
 * compares them, and the report says whether they are the same. The event counts differ slightly by definition:
 * after a race on a variable, FastTrack's epoch state differs from the full happens-before the Goldilocks lockset
 * decides.
 *
 * RAPID is not a dependency: `--rapid` names a build of github.com/umangm/rapid, either a directory holding
 * `bin/` (javac's classes: `javac -d bin -cp lib/commons-cli-1.3.1.jar:lib/parserv.jar:lib/rvparse.jar:
 * lib/lz4-1.3-SNAPSHOT.jar -sourcepath src src/HBEpoch.java`) and `lib/*.jar`, or a jar with its classes and
 * commons-cli; without it, or if it is absent, the RAPID column is skipped, saying so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, ROOT } from '../scripts/child.js';
import { parseCount } from './generate.js';
import { buildRevision } from './revision.js';
import { hasTime, median, type Run, rotation, timedEnv, timedEnvNote, timed as timedRun } from './timing.js';

const USAGE = `usage: npm run bench:rapid -- [options]
  --rapid DIR|JAR   RAPID's build: a directory with bin/ (compiled classes) and lib/*.jar, or a jar
                    (without it, or where it is absent, RAPID's runs are skipped, saying so)
  --events N,N      trace sizes in events (default 2M,20M)
  --reps N          repetitions, alternating the tools; medians are printed (default 3)
  --warmup N        untimed runs of each command before the repetitions (default 1)
  --base REV        also run this git revision's build of goldilocks check (compiled by bench/revision.ts)
  --seed N          the generator's seed (default 1)
  --java PATH       the java command (default java)
  --variables-max N compare the racy variables found (one more untimed run of each, RAPID with -v 1, 8x slower)
                    on traces of at most N events (default 2M; 0: never)
  --keep-extra-ca-certs
                    run both tools with this environment's NODE_EXTRA_CA_CERTS (dropped by default: Node parses
                    the certificates it names at every start, bench/timing.ts)
  trace:            bench/generate.ts --preset realistic (issue 24: 8 worker threads, 10,000 variables,
                    100 locks, no volatiles, ~80% thread-local accesses, lock-protected or read-only shared
                    variables, racy data 0.4% of the accesses outside critical sections, integer locations)
`;

const { values } = parseArgs({
  options: {
    rapid: { type: 'string' },
    events: { type: 'string', default: '2M,20M' },
    reps: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    base: { type: 'string' },
    seed: { type: 'string', default: '1' },
    java: { type: 'string', default: 'java' },
    'variables-max': { type: 'string', default: '2M' },
    'keep-extra-ca-certs': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const sizes = values.events.split(',').map((s) => parseCount(s, '--events'));
const reps = parseCount(values.reps, '--reps');
const variablesMax = parseCount(values['variables-max'], '--variables-max');
if (reps < 1) throw new Error('--reps must be at least 1');
const warmup = parseCount(values.warmup, '--warmup');

/** The Java class path of RAPID's build at `p`, or a sentence saying why it cannot run. */
function rapidClassPath(p: string | undefined): { cp?: string; why?: string } {
  if (p === undefined) return { why: 'no --rapid given' };
  if (!existsSync(p)) return { why: `--rapid ${p} is absent` };
  if (statSync(p).isFile()) return { cp: p };
  const bin = path.join(p, 'bin');
  if (!existsSync(path.join(bin, 'HBEpoch.class')))
    return { why: `${bin}/HBEpoch.class is absent (not built)` };
  const jars: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f);
      else if (e.name.endsWith('.jar')) jars.push(f);
    }
  };
  if (existsSync(path.join(p, 'lib'))) walk(path.join(p, 'lib'));
  return { cp: [bin, ...jars].join(path.delimiter) };
}

/** {@link timedRun} of `cmd args`; `goldilocks check` exits 1 when it finds races, a success here. */
const keepCaCerts = values['keep-extra-ca-certs'];
const env = timedEnv(keepCaCerts);
const timed = (cmd: string, args: string[]): Run =>
  timedRun(cmd, args, (status) => status === 0 || (status === 1 && cmd === process.execPath), env);

interface Races {
  /** As printed by the tool. */
  text: string;
  /** Racy variables, where known. */
  variables?: Set<string>;
}

/** Goldilocks' text SUMMARY line: racy variables, events, locations. */
function goldilocksRaces(stdout: string): Races {
  const m = /(\d[\d,]*) racy variables?, (\d[\d,]*) racy events?, (\d[\d,]*) racy locations?/.exec(stdout);
  return { text: m ? `${m[1]} var, ${m[2]} ev, ${m[3]} loc` : 'no SUMMARY line' };
}

/** RAPID's completion status: racy events and lines (locations). */
function rapidRaces(stdout: string): Races {
  const ev = /Number of 'racy' events found = (\d+)/.exec(stdout)?.[1];
  const lines = /Number of 'racy' lines found = (\d+)/.exec(stdout)?.[1];
  return { text: `${ev ?? '?'} ev, ${lines ?? '?'} loc` };
}

/** The racy variables in RAPID's `-v 1` output: one line per racy event, `Race detected at event N : T|r(X)|L`. */
function rapidVariables(stdout: string): Set<string> {
  const variables = new Set<string>();
  for (const m of stdout.matchAll(/^Race detected at event \d+ : [^|]*\|\w+\((.*)\)\|/gm))
    variables.add(m[1]);
  return variables;
}

const outDir = path.join(ROOT, 'bench', 'out');
mkdirSync(outDir, { recursive: true });
const { cp, why } = rapidClassPath(values.rapid);
if (why) process.stderr.write(`RAPID skipped: ${why} (see --help)\n`);
if (!hasTime) process.stderr.write('peak RSS not measured: /usr/bin/time (GNU time) is absent\n');

/** The `goldilocks` executable of the checkout at `root`: its package.json `bin` (what an installed copy runs). */
const executable = (root: string): string =>
  path.join(root, JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).bin.goldilocks as string);

const tools: { name: string; cmd: string; args: (f: string) => string[]; races: (o: string) => Races }[] = [
  {
    name: 'goldilocks check',
    cmd: process.execPath,
    args: (f) => [executable(ROOT), 'check', f],
    races: goldilocksRaces,
  },
];
if (values.base) {
  const { sha, dist } = buildRevision(values.base);
  tools.push({
    name: `goldilocks check (base ${sha.slice(0, 7)})`,
    cmd: process.execPath,
    args: (f) => [executable(path.dirname(dist)), 'check', f],
    races: goldilocksRaces,
  });
}
if (cp)
  tools.push({
    name: 'RAPID HBEpoch',
    cmd: values.java,
    args: (f) => ['-cp', cp, 'HBEpoch', '-f', 'std', '-p', f],
    races: rapidRaces,
  });

const header = [
  '| events | command | wall s (median) | min–max s | CPU s (median) | peak RSS MiB | races found | RAPID ÷ this (wall) | per repetition (wall, min–max) | RAPID ÷ this (CPU) |',
  '|---:|---|---:|---:|---:|---:|---|---:|---:|---:|',
];
const rows: string[] = [];
const notes: string[] = [];
for (const n of sizes) {
  const file = path.join(outDir, `realistic-${n}-s${values.seed}.std`);
  if (!existsSync(file)) {
    process.stderr.write(`generating ${file}\n`);
    const g = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'bench', 'generate.ts'),
        '--preset',
        'realistic',
        '--events',
        String(n),
        '--seed',
        values.seed,
        '--out',
        file,
      ],
      { stdio: 'inherit' },
    );
    if (g.status !== 0) throw new Error(`bench/generate.ts failed (exit ${g.status})`);
  }
  for (let r = 0; r < warmup; r++)
    for (const i of rotation(tools.length, r)) {
      const t = tools[i];
      const run = timed(t.cmd, t.args(file));
      process.stderr.write(`${n} events, ${t.name}: warm-up, ${run.seconds.toFixed(2)} s (not counted)\n`);
    }
  const runs: Run[][] = tools.map(() => []);
  for (let r = 0; r < reps; r++)
    for (const i of rotation(tools.length, r)) {
      const t = tools[i];
      const run = timed(t.cmd, t.args(file));
      runs[i].push(run);
      process.stderr.write(
        `${n} events, ${t.name}: ${run.seconds.toFixed(2)} s, ${run.rssMiB.toFixed(0)} MiB\n`,
      );
    }
  const med = runs.map((rs) => median(rs.map((x) => x.seconds)));
  const rapid = cp ? med[tools.length - 1] : Number.NaN;
  const cpu = runs.map((rs) => median(rs.map((x) => x.cpuSeconds)));
  const rapidCpu = cp ? cpu[tools.length - 1] : Number.NaN;
  tools.forEach((t, i) => {
    const rs = runs[i];
    const secs = rs.map((x) => x.seconds);
    const races = t.races(rs[0].stdout);
    // RAPID's run over this command's, repetition by repetition (the rotation keeps a repetition's runs together)
    const paired = cp ? rs.map((x, r) => runs[tools.length - 1][r].seconds / x.seconds) : [];
    rows.push(
      `| ${n.toLocaleString('en-US')} | ${t.name} | ${med[i].toFixed(2)} | ${Math.min(...secs).toFixed(2)}–${Math.max(...secs).toFixed(2)} | ` +
        `${Number.isNaN(cpu[i]) ? 'n/a' : cpu[i].toFixed(2)} | ` +
        `${Number.isNaN(rs[0].rssMiB) ? 'n/a' : median(rs.map((x) => x.rssMiB)).toFixed(0)} | ${races.text} | ` +
        `${cp ? (rapid / med[i]).toFixed(1) : 'skipped'} | ` +
        `${cp ? `${Math.min(...paired).toFixed(1)}–${Math.max(...paired).toFixed(1)}` : 'skipped'} | ` +
        `${cp && !Number.isNaN(cpu[i]) ? (rapidCpu / cpu[i]).toFixed(1) : 'skipped'} |`,
    );
  });
  if (cp && n <= variablesMax) {
    // the racy variables, compared: goldilocks' JSON report against RAPID's -v 1 lines (one more run each, untimed)
    process.stderr.write(`${n} events: comparing the racy variables (RAPID -v 1)\n`);
    const j = spawnSync(process.execPath, [executable(ROOT), 'check', '--json', file], {
      maxBuffer: 1 << 28,
      encoding: 'utf8',
    });
    const ours = new Set<string>(JSON.parse(j.stdout).racyVariables);
    const theirs = rapidVariables(
      timed(values.java, [...tools[tools.length - 1].args(file), '-v', '1']).stdout,
    );
    const onlyOurs = [...ours].filter((v) => !theirs.has(v));
    const onlyTheirs = [...theirs].filter((v) => !ours.has(v));
    notes.push(
      onlyOurs.length === 0 && onlyTheirs.length === 0
        ? `${n.toLocaleString('en-US')} events: the same ${ours.size} racy variables.`
        : `${n.toLocaleString('en-US')} events: racy variables differ: only goldilocks ${onlyOurs.length} ` +
            `(${onlyOurs.slice(0, 5).join(', ')}), only RAPID ${onlyTheirs.length} (${onlyTheirs.slice(0, 5).join(', ')}).`,
    );
  }
}
const lines = [
  `Goldilocks vs RAPID HBEpoch, end to end (bench/rapid.ts; ${describeMachine()}; load ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${reps} repetitions, alternating, after ${warmup} untimed)`,
  '',
  ...header,
  ...rows,
  '',
  ...[timedEnvNote(keepCaCerts)].filter((n) => n !== undefined),
  ...(cp
    ? [
        ...notes,
        "Races: 'var' racy variables, 'ev' racy events, 'loc' racy locations. RAPID counts the accesses at which " +
          'HBEpoch (FastTrack) detects a race, at most one per access, and their locations (its "racy lines"); ' +
          `its racy variables (those of the events it prints with -v 1) are compared on traces of at most ${variablesMax.toLocaleString('en-US')} events.`,
      ]
    : [`RAPID skipped: ${why}.`]),
];
process.stdout.write(`${lines.join('\n')}\n`);
