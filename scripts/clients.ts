/**
 * Real clients: the unmodified test suites of published npm packages that share memory between workers, run plainly
 * and under goldilocks, with the results printed as Markdown:
 *
 *   npm run clients -- [--clients thread-stream,piscina] [--modes plain,preload,goldilocks] [--cache DIR]
 *                      [--timeout SECONDS] [--out FILE]
 *
 * Nothing of a client is kept in this repository: each pinned version is fetched at run time from the npm registry
 * (`npm pack <name>@<version>`) into `<cache>/<name>@<version>/` and extracted there as `package/`, untouched. The
 * packages its tests need (the devDependencies they load and its own dependencies, pinned exactly in {@link CLIENTS})
 * are installed beside it in `<cache>/<name>@<version>/node_modules`, which Node's resolution reaches from `package/`
 * by walking up; the package's own manifest is not edited. Setup steps (e.g. thread-stream's transpilation of a test
 * fixture) then run plainly, once; a `.ready` stamp makes later runs skip all of this.
 *
 * The test command of each client (its own runner, node:test, on its own test files: the narrowest command that runs
 * the suite its `npm test` runs, without the linters, type checks and coverage of `npm test`) runs in `package/` once
 * per mode:
 * - `plain`: as is (NODE_OPTIONS removed);
 * - `preload`: with `NODE_OPTIONS=--require <an empty module>`, the control run: goldilocks loads itself with
 *   `--require`, and a test that fails here fails because of any preload, not because of the instrumentation;
 * - `goldilocks`: `goldilocks run --on-race=report --report <file> -- <command>` when the CLI has a `run` command,
 *   else `NODE_OPTIONS=--require <dist/node/register.js>` ("instrumentation only": the hooks and the loaders with
 *   whatever runtime register installs). Needs `npm run build` first.
 * Per run: exit code, the node:test summary (tests, pass, fail, cancelled, skipped, todo), the failing tests, wall
 * time, goldilocks warnings on stderr, and in `goldilocks` mode with `run` the racy variables of the report(s). Full
 * output goes to `<cache>/logs/<client>.<mode>.log`. Progress on stderr, the Markdown on stdout (and to --out).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { requireOption } from '../src/node/run.js';
import { describeMachine, ROOT } from './child.js';

/** One client: a published package whose tests run under goldilocks. */
interface Client {
  name: string;
  version: string;
  /** Exact versions installed beside the package: its dependencies and the devDependencies its tests load. */
  deps: Record<string, string>;
  /** Commands run once in `package/` after the install (argv; `node` is this Node, `.bin/x` the installed bin). */
  setup?: string[][];
  /** What {@link setup} does, for the Markdown. */
  setupNote?: string;
  /** Test command run in `package/`, before expanding {@link files} (argv, `node` as above). */
  command: string[];
  /** Test files, relative to `package/`: a directory and a file-name pattern, expanded in sorted order. */
  files: { dir: string; pattern: RegExp }[];
  /** Why the command is what it is, for the Markdown. */
  note: string;
}

/** A test that hangs is reported as failed after this long (node:test `--test-timeout`), and the run goes on. */
const TEST_TIMEOUT_MS = 120_000;
/** node:test options common to every client: a reporter whose summary is parsed, one test file at a time. */
const NODE_TEST = [
  '--test',
  '--test-reporter=spec',
  '--test-concurrency=1',
  `--test-timeout=${TEST_TIMEOUT_MS}`,
];

/**
 * The clients. synckit and tinypool are not among them: no published version's tarball ships its tests (their
 * package.json `files` keep only `lib/` and `dist/`), and nothing may be fetched from elsewhere.
 */
export const CLIENTS: Client[] = [
  {
    name: 'thread-stream',
    version: '4.2.1',
    deps: {
      'real-require': '1.0.0',
      desm: '1.3.1',
      'pino-elasticsearch': '9.0.0',
      'ts-node': '10.9.2',
      typescript: '5.7.3',
      '@types/node': '26.6.6',
    },
    // test/ts/transpile.sh, with the installed tsc instead of npx (which would look for it in package/ only).
    setup: [
      ['--target es5', 'es5.cjs'],
      ['--target es6', 'es6.mjs'],
      ['--target es6 --module commonjs', 'es6.cjs'],
      ['--target es2017', 'es2017.mjs'],
      ['--target es2017 --module commonjs', 'es2017.cjs'],
      ['--target esnext --module esnext', 'esnext.mjs'],
      ['--target esnext --module commonjs', 'esnext.cjs'],
    ].map(([flags, out]) => [
      'sh',
      '-c',
      `cd test/ts && "$GL_BIN/tsc" --skipLibCheck ${flags} ./to-file.ts && mv ./to-file.js ./to-file.${out}`,
    ]),
    setupNote:
      "test/ts/transpile.sh's seven `tsc --skipLibCheck --target <t> [--module <m>] ./to-file.ts` compilations " +
      'to test/ts/to-file.<t>.{cjs,mjs}, with the installed tsc',
    command: ['node', '--expose-gc', ...NODE_TEST],
    files: [{ dir: 'test', pattern: /\.test\.(js|mjs)$/ }],
    note:
      '`npm test` is lint, tsc, tsd, test/ts/transpile.sh, then `borp --expose-gc --pattern "test/*.test.{js,mjs}"`; ' +
      'borp runs those files with node:test, as this command does (test/ts/transpile.sh is the setup step).',
  },
  {
    name: 'piscina',
    version: '5.3.2',
    deps: { tsx: '4.23.15', 'concat-stream': '2.0.0', '@napi-rs/nice': '1.1.1' },
    command: ['node', '--enable-source-maps', '--import=tsx', ...NODE_TEST],
    files: [{ dir: 'test', pattern: /test\.ts$/ }],
    note:
      '`npm test` is scripts/run-tests.js: `node --enable-source-maps --import=tsx --test ' +
      '--test-concurrency=<cores - 1>` over `test/**/*test.ts` (test/jest/ holds only a .spec.ts), as this command does.',
  },
];

const MODES = ['plain', 'preload', 'goldilocks'] as const;
type Mode = (typeof MODES)[number];
const CLI = path.join(ROOT, 'dist/cli/main.js');
let REGISTER = path.join(ROOT, 'dist/node/register.js');
const DEFAULT_CACHE = path.join(os.tmpdir(), 'goldilocks-clients');
const DEFAULT_TIMEOUT_S = 1800;
const MAX_FAILURES_SHOWN = 6;

const USAGE = `usage: npm run clients -- [options]
  --clients A,B     clients to run (default ${CLIENTS.map((c) => c.name).join(',')})
  --modes A,B       modes (default ${MODES.join(',')})
  --cache DIR       where tarballs are fetched, extracted and installed (default ${DEFAULT_CACHE})
  --timeout SECONDS limit per test run (default ${DEFAULT_TIMEOUT_S}); the run is then killed
  --out FILE        also write the Markdown to FILE
  --register FILE   the module preloaded in "instrumentation only" mode (default dist/node/register.js)
  -h, --help        this text
`;

interface Exec {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  ms: number;
  output: string;
}

/** Runs argv in cwd with env, stdout and stderr interleaved into one string; kills its process group on timeout. */
function exec(argv: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs?: number): Promise<Exec> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            try {
              process.kill(-child.pid!, 'SIGKILL');
            } catch {
              child.kill('SIGKILL');
            }
          }, timeoutMs);
    const take = (d: string) => {
      output += d;
    };
    child.stdout.setEncoding('utf8').on('data', take);
    child.stderr.setEncoding('utf8').on('data', take);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, ms: performance.now() - start, output });
    });
  });
}

/** Like {@link exec} without a limit, throwing (with the output's tail) unless it exits with 0. */
async function mustExec(argv: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const r = await exec(argv, cwd, env);
  if (r.code !== 0) {
    const tail = r.output.trim().split('\n').slice(-15).join('\n');
    throw new Error(`\`${argv.join(' ')}\` in ${cwd} exited ${r.code ?? r.signal}:\n${tail}`);
  }
  return r.output;
}

function log(message: string): void {
  process.stderr.write(`[clients] ${message}\n`);
}

/** The environment of a client's commands: ours without NODE_OPTIONS, GL_BIN naming the installed bins. */
function baseEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GL_BIN: path.join(dir, 'node_modules/.bin') };
  delete env.NODE_OPTIONS;
  return env;
}

/** `node` → this Node; everything else as is. */
function resolveArgv(argv: string[]): string[] {
  return argv[0] === 'node' ? [process.execPath, ...argv.slice(1)] : argv;
}

/**
 * Fetches, extracts and installs one client under `cache` unless its `.ready` stamp matches the spec.
 * @returns the client's directory (`package/` is the extracted tarball).
 */
async function prepare(client: Client, cache: string): Promise<string> {
  const dir = path.join(cache, `${client.name}@${client.version}`);
  const stamp = createHash('sha256')
    .update(JSON.stringify([client.deps, client.setup ?? []]))
    .digest('hex');
  const ready = path.join(dir, '.ready');
  if (existsSync(ready) && readFileSync(ready, 'utf8') === stamp) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`${client.name}: npm pack ${client.name}@${client.version}`);
  await mustExec(
    ['npm', 'pack', `${client.name}@${client.version}`, '--pack-destination', dir, '--silent'],
    dir,
  );
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`${client.name}: npm pack left no .tgz in ${dir}`);
  await mustExec(['tar', 'xzf', tarball], dir);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package/package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const missing = Object.keys(manifest.dependencies ?? {}).filter((d) => !(d in client.deps));
  if (missing.length)
    throw new Error(`${client.name}: dependencies not pinned in CLIENTS: ${missing.join(', ')}`);
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: `goldilocks-client-${client.name}`, private: true, dependencies: client.deps }, null, 2)}\n`,
  );
  log(`${client.name}: npm install ${Object.keys(client.deps).join(' ')}`);
  await mustExec(['npm', 'install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], dir);
  for (const step of client.setup ?? []) {
    log(`${client.name}: ${step.join(' ')}`);
    await mustExec(resolveArgv(step), path.join(dir, 'package'), baseEnv(dir));
  }
  writeFileSync(ready, stamp);
  return dir;
}

/** The test files of `client` under `pkg`, relative to it, in sorted order. */
function testFiles(client: Client, pkg: string): string[] {
  return client.files.flatMap(({ dir, pattern }) =>
    readdirSync(path.join(pkg, dir))
      .filter((f) => pattern.test(f))
      .sort()
      .map((f) => `${dir}/${f}`),
  );
}

/** Does the CLI have a `run` command (listed by `--help`)? */
async function hasRunCommand(): Promise<boolean> {
  if (!existsSync(CLI)) return false;
  const r = await exec([process.execPath, CLI, '--help'], ROOT, process.env);
  return /^\s+run\b/m.test(r.output);
}

/** The node:test summary counts (`ℹ tests 71` from spec, `# tests 71` from TAP), or null without one. */
export function parseSummary(output: string): Record<string, number> | null {
  const counts: Record<string, number> = {};
  for (const m of output.matchAll(/^[ℹ#] (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gmu)) {
    counts[m[1]] = Number(m[2]);
  }
  return 'tests' in counts ? counts : null;
}

/** The failing tests listed after spec's `✖ failing tests:` line (names without durations), deduplicated. */
export function parseFailures(output: string): string[] {
  const at = output.lastIndexOf('✖ failing tests:');
  if (at < 0) return [];
  const names = new Set<string>();
  for (const m of output.slice(at).matchAll(/^✖ (.+?)(?: \([\d.]+ms\))?$/gmu)) {
    if (m[1] !== 'failing tests:') names.add(m[1]);
  }
  return [...names];
}

/** Racy variables of every JSON report at `file` or beside it named `<file>*` (an object, an array, JSON lines). */
function racyVariables(file: string): { variables: string[]; reports: number } {
  const dir = path.dirname(file);
  const base = path.basename(file);
  const variables = new Set<string>();
  let reports = 0;
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const r = v as { racyVariables?: unknown; races?: unknown };
      if (Array.isArray(r.racyVariables)) {
        reports++;
        for (const x of r.racyVariables) variables.add(String(x));
      } else if (Array.isArray(r.races)) {
        reports++;
        for (const x of r.races as { variable?: unknown }[])
          if (x?.variable) variables.add(String(x.variable));
      }
    }
  };
  if (!existsSync(dir)) return { variables: [], reports: 0 };
  for (const f of readdirSync(dir).filter((f) => f.startsWith(base))) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    try {
      visit(JSON.parse(text));
    } catch {
      for (const line of text.split('\n')) if (line.trim()) visit(JSON.parse(line));
    }
  }
  return { variables: [...variables].sort(), reports };
}

interface RunResult {
  client: Client;
  mode: Mode;
  label: string;
  exec: Exec;
  summary: Record<string, number> | null;
  failures: string[];
  warnings: number;
  races?: { variables: string[]; reports: number };
  log: string;
}

async function runMode(
  client: Client,
  dir: string,
  mode: Mode,
  cache: string,
  withRun: boolean,
  timeoutMs: number,
): Promise<RunResult> {
  const pkg = path.join(dir, 'package');
  const command = [...resolveArgv(client.command), ...testFiles(client, pkg)];
  const env = baseEnv(dir);
  let argv = command;
  let label: string = mode;
  let report: string | undefined;
  if (mode === 'preload') {
    const empty = path.join(cache, 'empty-preload.cjs');
    writeFileSync(empty, '// The control preload of npm run clients: an empty module.\n');
    env.NODE_OPTIONS = requireOption(empty);
    label = 'preload (empty --require)';
  } else if (mode === 'goldilocks' && withRun) {
    const reports = path.join(cache, 'reports');
    mkdirSync(reports, { recursive: true });
    report = path.join(reports, `${client.name}.json`);
    for (const f of readdirSync(reports))
      if (f.startsWith(`${client.name}.json`)) rmSync(path.join(reports, f));
    argv = [process.execPath, CLI, 'run', '--on-race=report', '--report', report, '--', ...command];
    label = 'goldilocks run';
  } else if (mode === 'goldilocks') {
    env.NODE_OPTIONS = requireOption(REGISTER);
    label = 'instrumentation only';
  }
  const shown = argv.slice(0, argv.length - (command.length - client.command.length));
  log(`${client.name} [${label}]: ${shown.join(' ')} <${command.length - client.command.length} test files>`);
  const r = await exec(argv, pkg, env, timeoutMs);
  const logs = path.join(cache, 'logs');
  mkdirSync(logs, { recursive: true });
  const logFile = path.join(logs, `${client.name}.${mode}.log`);
  writeFileSync(logFile, r.output);
  const result: RunResult = {
    client,
    mode,
    label,
    exec: r,
    summary: parseSummary(r.output),
    failures: parseFailures(r.output).map((f) => (f.startsWith(`${pkg}/`) ? f.slice(pkg.length + 1) : f)),
    warnings: r.output.split('\n').filter((l) => l.startsWith('goldilocks: warning:')).length,
    races: report ? racyVariables(report) : undefined,
    log: logFile,
  };
  const s = result.summary;
  log(
    `${client.name} [${label}]: exit ${r.timedOut ? 'timeout' : (r.code ?? r.signal)}, ` +
      `${s ? `${s.pass}/${s.tests} passed, ${s.fail} failed` : 'no summary'}, ${(r.ms / 1000).toFixed(1)} s (${logFile})`,
  );
  return result;
}

/** Shows `argv` as a shell command relative to the client's package directory. */
function showCommand(client: Client, pkg: string): string {
  const files = testFiles(client, pkg);
  const globs = client.files.map(({ dir, pattern }) => `${dir}/ matching ${pattern}`).join(', ');
  return `${client.command.join(' ')} <${files.length} files: ${globs}>`;
}

/** At most {@link MAX_FAILURES_SHOWN} failing tests, then how many more (the log has them all). */
function listFailures(failures: string[]): string {
  if (failures.length === 0) return '–';
  const shown = failures.slice(0, MAX_FAILURES_SHOWN).join('; ');
  return failures.length > MAX_FAILURES_SHOWN
    ? `${shown}; … ${failures.length - MAX_FAILURES_SHOWN} more`
    : shown;
}

function cell(s: string): string {
  return s.replaceAll('|', '\\|');
}

function markdown(results: RunResult[], cache: string): string {
  const lines: string[] = [];
  lines.push(`Machine: ${describeMachine()}. Date: ${new Date().toISOString().slice(0, 10)}.`, '');
  const clients = [...new Set(results.map((r) => r.client))];
  for (const c of clients) {
    const pkg = path.join(cache, `${c.name}@${c.version}`, 'package');
    lines.push(
      `- **${c.name}@${c.version}** (\`npm pack ${c.name}@${c.version}\`, unmodified), beside it ` +
        `\`npm install --ignore-scripts\` of ${Object.entries(c.deps)
          .map(([n, v]) => `${n}@${v}`)
          .join(', ')}.`,
    );
    if (c.setupNote) lines.push(`  Setup, once: ${c.setupNote}.`);
    lines.push(`  Test command, in the package: \`${showCommand(c, pkg)}\`.`, `  ${c.note}`);
  }
  lines.push(
    '',
    '| client | mode | exit | tests | pass | fail | cancelled | skipped | time (s) | goldilocks warnings | racy variables | failing tests |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  );
  for (const r of results) {
    const s = r.summary;
    const n = (k: string): string => (s ? String(s[k] ?? 0) : '–');
    const exit = r.exec.timedOut ? 'timeout' : String(r.exec.code ?? r.exec.signal);
    const races = r.races
      ? r.races.reports
        ? r.races.variables.length
          ? r.races.variables.join(', ')
          : 'none'
        : 'no report'
      : '–';
    lines.push(
      `| ${r.client.name}@${r.client.version} | ${r.label} | ${exit} | ${n('tests')} | ${n('pass')} | ${n('fail')} | ` +
        `${n('cancelled')} | ${n('skipped')} | ${(r.exec.ms / 1000).toFixed(1)} | ${r.mode === 'plain' ? '–' : r.warnings} | ` +
        `${cell(races)} | ${cell(listFailures(r.failures))} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string' },
      modes: { type: 'string' },
      cache: { type: 'string' },
      timeout: { type: 'string' },
      out: { type: 'string' },
      register: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const names = values.clients?.split(',') ?? CLIENTS.map((c) => c.name);
  const clients = names.map((n) => {
    const c = CLIENTS.find((x) => x.name === n);
    if (!c) throw new Error(`unknown client ${n} (known: ${CLIENTS.map((x) => x.name).join(', ')})`);
    return c;
  });
  const modes = (values.modes?.split(',') ?? [...MODES]).map((m) => {
    if (!(MODES as readonly string[]).includes(m))
      throw new Error(`unknown mode ${m} (known: ${MODES.join(', ')})`);
    return m as Mode;
  });
  const timeoutS = Number(values.timeout ?? DEFAULT_TIMEOUT_S);
  if (!(timeoutS > 0)) throw new Error(`--timeout: not a positive number: ${values.timeout}`);
  const cache = path.resolve(values.cache ?? DEFAULT_CACHE);
  if (values.register) REGISTER = path.resolve(values.register);
  mkdirSync(cache, { recursive: true });
  const withRun = modes.includes('goldilocks') && (await hasRunCommand());
  if (modes.includes('goldilocks') && !withRun && !existsSync(REGISTER))
    throw new Error(`${REGISTER} is missing: npm run build first`);
  if (modes.includes('goldilocks') && !withRun)
    log(
      'the CLI has no `run` command yet: goldilocks mode is "instrumentation only" (NODE_OPTIONS=--require register)',
    );

  const results: RunResult[] = [];
  for (const c of clients) {
    const dir = await prepare(c, cache);
    for (const m of modes) results.push(await runMode(c, dir, m, cache, withRun, timeoutS * 1000));
  }
  const md = markdown(results, cache);
  process.stdout.write(md);
  if (values.out) writeFileSync(path.resolve(values.out), md);
}

main().catch((e: unknown) => {
  process.stderr.write(`clients: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
