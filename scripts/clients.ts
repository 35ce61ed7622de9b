/**
 * Real clients: the unmodified test suites of published npm packages that share memory between workers, or for
 * packages whose tarballs ship none, node:test drivers of ours (`test/clients/<driver>/`, see {@link Client.driver}),
 * run plainly and under goldilocks, with the results printed as Markdown:
 *
 *   npm run clients -- [--clients thread-stream,piscina] [--modes plain,preload,goldilocks] [--cache DIR]
 *                      [--timeout SECONDS] [--repeat N] [--base REV] [--out FILE]
 *
 * Nothing of a client is kept in this repository: each pinned version is fetched at run time from the npm registry
 * (`npm pack <name>@<version>`) into `<cache>/<name>@<version>/` (a scope's `/` as `+`) and extracted there as
 * `package/`, untouched; a driven package is installed from the registry instead, beside a fresh copy of its driver
 * in `driver/`, where its command then runs. The
 * packages its tests need (the devDependencies they load and its own dependencies, pinned exactly in {@link CLIENTS})
 * are installed beside it in `<cache>/<name>@<version>/node_modules`, which Node's resolution reaches from `package/`
 * by walking up; the package's own manifest is not edited. Setup steps (e.g. thread-stream's transpilation of a test
 * fixture) then run plainly, once; a `.ready` stamp makes later runs skip all of this.
 *
 * The test command of each client (its own runner, node:test, on its own test files: the narrowest command that runs
 * the suite its `npm test` runs, without the linters, type checks and coverage of `npm test`) runs in `package/` once
 * per mode (`--repeat N`: N times, the modes alternating in an order rotated each time, as bench/timing.ts
 * `rotation` orders them; then a table of each client's median times and its goldilocks ÷ plain ratio, by the medians
 * and per repetition, lowest and highest):
 * - `plain`: as is (NODE_OPTIONS removed);
 * - `preload`: with `NODE_OPTIONS=--require <an empty module>`, the control run: goldilocks loads itself with
 *   `--require`, and a test that fails here fails because of any preload, not because of the instrumentation;
 * - `goldilocks`: `goldilocks run --on-race=report --report <file> -- <command>` when the CLI has a `run` command,
 *   else `NODE_OPTIONS=--require <dist/node/register.js>` ("instrumentation only": the hooks and the loaders with
 *   whatever runtime register installs). Needs `npm run build` first.
 * - `goldilocks@base`, with `--base REV`: `goldilocks run` of git revision REV's build (bench/revision.ts), side by
 *   side with this checkout's.
 * Per run: exit code, the node:test summary (tests, pass, fail, cancelled, skipped, todo), the failing tests, wall
 * time, goldilocks warnings on stderr, and in `goldilocks` mode with `run` the racy variables of the report(s). Full
 * output goes to `<cache>/logs/<client>.<mode>.log`. Progress on stderr, the Markdown on stdout (and to --out).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildRevision } from '../bench/revision.js';
import { median, rotation } from '../bench/timing.js';
import { requireOption } from '../src/node/run.js';
import { describeMachine, ROOT } from './child.js';

/** One client: a published package whose tests, or a driver of ours, run under goldilocks. */
interface Client {
  name: string;
  version: string;
  /** Exact versions installed beside the package: its dependencies and the devDependencies its tests load. */
  deps: Record<string, string>;
  /**
   * A driver of ours instead of the package's own tests: the directory `test/clients/<driver>/` (node:test files
   * that use the package as a user would), copied afresh to `<cache>/<name>@<version>/driver/` before each run and
   * run there; the package itself is then one of {@link deps}, installed from the registry, and no tarball is
   * packed. For packages whose tarballs ship no tests.
   */
  driver?: string;
  /** Commands run once in `package/` after the install (argv; `node` is this Node, `.bin/x` the installed bin). */
  setup?: string[][];
  /** What {@link setup} does, for the Markdown. */
  setupNote?: string;
  /** Test command run in `package/` (or `driver/`), before expanding {@link files} (argv, `node` as above). */
  command: string[];
  /** Test files, relative to `package/` (or `driver/`): a directory and a file-name pattern, sorted. */
  files: { dir: string; pattern: RegExp }[];
  /** Variables added to the test command's environment in every mode. */
  env?: Record<string, string>;
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
 * A driver client: `name@version` installed from the registry and exercised by our node:test files in
 * `test/clients/<driver>/` (see {@link Client.driver}).
 */
function driven(name: string, version: string, driver: string, what: string): Client {
  return {
    name,
    version,
    deps: { [name]: version },
    driver,
    command: ['node', ...NODE_TEST],
    files: [{ dir: '.', pattern: /\.test\.mjs$/ }],
    note: `The tarball ships no tests (nothing may be fetched from elsewhere): our driver ${what}.`,
  };
}

/**
 * The clients: the published test suites of thread-stream, piscina, @zenfs/core, sharedmap and pino, then drivers of
 * ours for packages whose tarballs ship no tests (their package.json `files` keep only the built code).
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
  {
    name: '@zenfs/core',
    version: '2.7.6',
    deps: {
      '@types/node': '26.6.6',
      '@zenfs/streams': '1.0.1',
      buffer: '6.0.3',
      eventemitter3: '5.0.4',
      kerium: '1.5.0',
      memium: '1.0.4',
      utilium: '3.9.0',
      tsx: '4.23.15',
    },
    // Node 20 has WebSocket only behind this flag; dist/internal/rpc.js tests `port instanceof WebSocket`.
    command: ['node', '--experimental-websocket', '--import=tsx', ...NODE_TEST],
    files: [
      { dir: 'tests/backend', pattern: /\.test\.ts$/ },
      { dir: 'tests/common', pattern: /\.test\.ts$/ },
    ],
    note:
      '`npm test` is scripts/test.js (`zenfs-test -abcpn`): its `--common` run is `node --test ' +
      "--experimental-test-coverage tests/*.test.ts 'tests/**/!(fs)/*.test.ts'` (the backend and common tests, " +
      'as this command runs them, without coverage), then the fs suites once per setup file. `-n` runs the .ts ' +
      'files with plain node (type stripping, Node ≥ 22.6); on Node 20 tsx loads them, as zenfs-test does ' +
      'without `-n`, and `--experimental-websocket` gives Node 20 the global WebSocket the Port backend tests ' +
      "use. The SingleBuffer tests' workers must answer within 1 s (`setTimeout(reject, 1000)`): under load, " +
      'or slowed by instrumentation, *cross-thread SharedArrayBuffer* can miss that deadline.',
  },
  {
    name: 'sharedmap',
    version: '1.2.0',
    deps: {},
    command: ['node'],
    files: [{ dir: '.', pattern: /^test\.js$/ }],
    note:
      '`npm test` is `node --experimental-worker test` (the flag is a no-op since Node 11.7): test.js is not a ' +
      'node:test file but a program (exit 0 when its checks pass) that fills a map of the 370,101 words of ' +
      'words_dictionary.json from one worker per core, 4 passes of writes, reads, deletes, unlocked and ' +
      '`lockWrite` iterations, then checks the map in the main thread.',
  },
  {
    name: 'pino',
    version: '10.4.0',
    deps: {
      '@pinojs/redact': '0.4.0',
      'atomic-sleep': '1.0.0',
      'on-exit-leak-free': '2.1.2',
      'pino-abstract-transport': '3.0.0',
      'pino-std-serializers': '7.1.0',
      'process-warning': '5.1.1',
      'quick-format-unescaped': '4.0.4',
      'real-require': '1.0.0',
      'safe-stable-stringify': '2.5.0',
      'sonic-boom': '4.2.1',
      'thread-stream': '4.2.1',
      execa: '5.1.1',
      proxyquire: '2.1.3',
      'flush-write-stream': '2.0.0',
      split2: '4.2.0',
      rimraf: '6.1.4',
      '@matteo.collina/tspl': '0.2.0',
      'strip-ansi': '6.0.1',
      'pino-pretty': '13.2.0',
      'get-caller-file': '2.0.5',
      typescript: '6.0.3',
      '@types/node': '26.6.6',
    },
    setup: [
      ['sh', '-c', 'PATH="$GL_BIN:$PATH" node test/fixtures/ts/transpile.cjs'],
      ['sh', '-c', 'mkdir -p node_modules && ln -sfn ../../node_modules/get-caller-file node_modules/'],
    ],
    setupNote:
      '`npm run transpile` (test/fixtures/ts/transpile.cjs: tsc of a transport fixture to es6/es2017/esnext .cjs), ' +
      'with the installed tsc; and `package/node_modules/get-caller-file`, a link to the installed one, where ' +
      '*from a wrapped dependency* links it from (and where its *with package* tests link their fixture)',
    env: { CI: '1' },
    command: ['node', ...NODE_TEST],
    files: [{ dir: 'test/transport', pattern: /\.test\.(js|mjs)$/ }],
    note:
      "pino's transports run in a worker through thread-stream (4.2.1 here, as pino 10 depends on ^4): " +
      '`npm test` runs lint, the transpilation, then `borp --timeout 60000 --coverage …` over test/**/*.test.{js,mjs,ts}; ' +
      'this command runs the transport tests (test/transport/*.test.{js,mjs}) with node:test, as borp does, ' +
      'without coverage and without test/transport/core.transpiled.test.ts (TypeScript, which borp loads with ' +
      "ts-node). `CI=1`, as pino's CI sets it, skips *eight million lines* (big.test.js), which writes 8 M lines " +
      'through a transport and outlasts the 120 s test limit here even plainly.',
  },
  driven(
    'ringbuf.js',
    '0.4.0',
    'ringbuf',
    'pushes 100,000 numbered Int32 elements through a RingBuffer of 257 ' +
      'elements from a producer worker to the main thread, in chunks of varying sizes (wrapping around), and checks ' +
      'the order and the values; also a Float32 ring filled with `writeCallback`',
  ),
  driven(
    'synckit',
    '0.12.3',
    'synckit',
    'calls a `createSyncFn` worker (`runAsWorker`) 200 times with different ' +
      'arguments, including a rejecting call and a large result',
  ),
  driven(
    'sync-message-port',
    '1.2.0',
    'sync-message-port',
    'sends 500 messages each way between the main thread ' +
      'and a worker over `SyncMessagePort.createChannel()`, receiving them with `receiveMessage()`, then closes',
  ),
  driven(
    'make-synchronized',
    '0.8.0',
    'make-synchronized',
    'makes an asynchronous module synchronous with ' +
      '`makeSynchronized(url)` and calls its functions 200 times (values, a thrown error, a large string)',
  ),
  driven(
    'esbuild',
    '0.28.2',
    'esbuild',
    'calls `transformSync` 100 times (TypeScript and JSX sources), which ' +
      "esbuild's Node API serves from a worker thread it waits for with `Atomics.wait`",
  ),
  driven(
    'tinypool',
    '2.2.0',
    'tinypool',
    'runs 400 tasks on a pool of 2 workers (`maxThreads: 2`), tasks that ' +
      'update a SharedArrayBuffer under a lock of `Atomics`, and checks the results',
  ),
  driven(
    'sync-threads',
    '1.0.1',
    'sync-threads',
    'calls 20 functions made by `createSyncFn`, each once (one ' +
      "call per function: the package's buffer is never reset, so a second call of the same function would " +
      "return the first call's result, the real race documented in docs/RESULTS.md)",
  ),
];

const MODES = ['plain', 'preload', 'goldilocks'] as const;
/** A mode of `--modes`, or the base build's run (`--base`). */
type Mode = (typeof MODES)[number] | 'goldilocks@base';
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
  --repeat N        run each client's modes N times, alternating (default 1); with N > 1, a table of the median
                    times and of the goldilocks ÷ plain ratios follows
  --base REV        also run mode goldilocks@base: \`goldilocks run\` of git revision REV's build (bench/revision.ts)
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

/** `name@version` as one file name (a scope's `/` becomes `+`). */
function slug(client: Client): string {
  return `${client.name.replace('/', '+')}@${client.version}`;
}

/** Where a client's test command runs: the extracted tarball, or the copy of our driver. */
function workDir(client: Client, dir: string): string {
  return path.join(dir, client.driver ? 'driver' : 'package');
}

/**
 * Fetches, extracts and installs one client under `cache` unless its `.ready` stamp matches the spec; copies a
 * driver client's driver afresh in any case.
 * @returns the client's directory (`package/` is the extracted tarball, `driver/` the driver's copy).
 */
async function prepare(client: Client, cache: string): Promise<string> {
  const dir = path.join(cache, slug(client));
  const stamp = createHash('sha256')
    .update(JSON.stringify([client.deps, client.setup ?? [], client.driver ?? '']))
    .digest('hex');
  const ready = path.join(dir, '.ready');
  if (!existsSync(ready) || readFileSync(ready, 'utf8') !== stamp) await install(client, dir, stamp);
  if (client.driver) {
    rmSync(path.join(dir, 'driver'), { recursive: true, force: true });
    cpSync(path.join(ROOT, 'test/clients', client.driver), path.join(dir, 'driver'), { recursive: true });
  }
  return dir;
}

/** {@link prepare}'s fetch, extraction, install and setup, ending with the `.ready` stamp. */
async function install(client: Client, dir: string, stamp: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: `goldilocks-client-${slug(client).replace('@', '-')}`, private: true, dependencies: client.deps }, null, 2)}\n`,
  );
  if (!client.driver) await unpack(client, dir);
  log(`${client.name}: npm install ${Object.keys(client.deps).join(' ')}`);
  await mustExec(['npm', 'install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], dir);
  for (const step of client.setup ?? []) {
    log(`${client.name}: ${step.join(' ')}`);
    await mustExec(resolveArgv(step), path.join(dir, 'package'), baseEnv(dir));
  }
  writeFileSync(path.join(dir, '.ready'), stamp);
}

/** `npm pack`s a client's tarball into `dir` and extracts it as `package/`; checks its dependencies are pinned. */
async function unpack(client: Client, dir: string): Promise<void> {
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
  /** The repetition (0-based) and how many there are (`--repeat`). */
  rep: number;
  reps: number;
}

/** How {@link runMode} runs: see {@link main}'s options. */
interface RunOptions {
  cache: string;
  /** Whether the CLI has a `run` command. */
  withRun: boolean;
  timeoutMs: number;
  /** The repetition (0-based) and how many there are (`--repeat`). */
  rep: number;
  reps: number;
  /** `--base`: the revision and the CLI of its build (mode `goldilocks@base`). */
  base?: { sha: string; cli: string };
}

async function runMode(client: Client, dir: string, mode: Mode, o: RunOptions): Promise<RunResult> {
  const { cache, withRun, timeoutMs, rep, reps } = o;
  const pkg = workDir(client, dir);
  const command = [...resolveArgv(client.command), ...testFiles(client, pkg)];
  const env = { ...baseEnv(dir), ...client.env };
  let argv = command;
  let label: string = mode;
  const nth = reps > 1 ? ` (${rep + 1}/${reps})` : '';
  let report: string | undefined;
  if (mode === 'preload') {
    const empty = path.join(cache, 'empty-preload.cjs');
    writeFileSync(empty, '// The control preload of npm run clients: an empty module.\n');
    env.NODE_OPTIONS = requireOption(empty);
    label = 'preload (empty --require)';
  } else if ((mode === 'goldilocks' && withRun) || mode === 'goldilocks@base') {
    const reports = path.join(cache, 'reports');
    mkdirSync(reports, { recursive: true });
    const name = `${slug(client)}${mode === 'goldilocks' ? '' : '.base'}.json`;
    report = path.join(reports, name);
    for (const f of readdirSync(reports)) if (f.startsWith(name)) rmSync(path.join(reports, f));
    const cli = mode === 'goldilocks' ? CLI : (o.base?.cli ?? CLI);
    argv = [process.execPath, cli, 'run', '--on-race=report', '--report', report, '--', ...command];
    label = mode === 'goldilocks' ? 'goldilocks run' : `goldilocks run @${o.base?.sha.slice(0, 7)}`;
  } else if (mode === 'goldilocks') {
    env.NODE_OPTIONS = requireOption(REGISTER);
    label = 'instrumentation only';
  }
  label += nth;
  const shown = argv.slice(0, argv.length - (command.length - client.command.length));
  log(`${client.name} [${label}]: ${shown.join(' ')} <${command.length - client.command.length} test files>`);
  const r = await exec(argv, pkg, env, timeoutMs);
  const logs = path.join(cache, 'logs');
  mkdirSync(logs, { recursive: true });
  const logFile = path.join(logs, `${slug(client)}.${mode}${reps > 1 ? `.${rep + 1}` : ''}.log`);
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
    rep,
    reps,
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
    const pkg = workDir(c, path.join(cache, slug(c)));
    const deps = Object.entries(c.deps)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ');
    lines.push(
      c.driver
        ? `- **${c.name}@${c.version}** (\`npm install --ignore-scripts ${c.name}@${c.version}\`), driven by ` +
            `test/clients/${c.driver}/.`
        : `- **${c.name}@${c.version}** (\`npm pack ${c.name}@${c.version}\`, unmodified), beside it ` +
            `\`npm install --ignore-scripts\` of ${deps || 'nothing'}.`,
    );
    if (c.setupNote) lines.push(`  Setup, once: ${c.setupNote}.`);
    const env = Object.entries(c.env ?? {}).map(([k, v]) => `${k}=${v} `);
    lines.push(
      `  Test command, in the ${c.driver ? 'driver' : 'package'}: \`${env.join('')}${showCommand(c, pkg)}\`.`,
      `  ${c.note}`,
    );
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
  if (results.some((r) => r.reps > 1)) lines.push('', ...ratios(results));
  return `${lines.join('\n')}\n`;
}

/**
 * The table of `--repeat`: per client, each mode's median time over its repetitions and, for the modes other than
 * plain, its ratio to plain by the medians and per repetition (each run against the plain run of its repetition),
 * lowest and highest. A run that did not exit 0 is left out, and said.
 */
function ratios(results: RunResult[]): string[] {
  const lines = [
    '| client | mode | runs | time (s, median) | min–max (s) | ÷ plain (medians) | ÷ plain per repetition (min–max) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  const ok = (r: RunResult) => !r.exec.timedOut && r.exec.code === 0;
  for (const c of [...new Set(results.map((r) => r.client))]) {
    const of = (m: Mode) => results.filter((r) => r.client === c && r.mode === m && ok(r));
    const plain = of('plain');
    const plainMedian = median(plain.map((r) => r.exec.ms));
    for (const m of [...new Set(results.filter((r) => r.client === c).map((r) => r.mode))]) {
      const runs = of(m);
      const all = results.filter((r) => r.client === c && r.mode === m).length;
      const ms = runs.map((r) => r.exec.ms);
      const paired = runs.flatMap((r) => {
        const p = plain.find((x) => x.rep === r.rep);
        return p ? [r.exec.ms / p.exec.ms] : [];
      });
      const s = (x: number) => (x / 1000).toFixed(1);
      lines.push(
        `| ${c.name}@${c.version} | ${m} | ${runs.length}${runs.length < all ? ` of ${all} (the others failed)` : ''} | ` +
          `${runs.length ? s(median(ms)) : '–'} | ${runs.length ? `${s(Math.min(...ms))}–${s(Math.max(...ms))}` : '–'} | ` +
          `${m !== 'plain' && runs.length && plain.length ? (median(ms) / plainMedian).toFixed(2) : '–'} | ` +
          `${m !== 'plain' && paired.length ? `${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)}` : '–'} |`,
      );
    }
  }
  return lines;
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
      repeat: { type: 'string' },
      base: { type: 'string' },
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
  const reps = Number(values.repeat ?? 1);
  if (!Number.isInteger(reps) || reps < 1)
    throw new Error(`--repeat: not a positive integer: ${values.repeat}`);
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

  const built = values.base === undefined ? undefined : buildRevision(values.base);
  const base = built && { sha: built.sha, cli: path.join(built.dist, 'cli', 'main.js') };
  if (base) modes.push('goldilocks@base');
  const results: RunResult[] = [];
  for (const c of clients) {
    const dir = await prepare(c, cache);
    for (let rep = 0; rep < reps; rep++)
      for (const i of rotation(modes.length, rep))
        results.push(
          await runMode(c, dir, modes[i], { cache, withRun, timeoutMs: timeoutS * 1000, rep, reps, base }),
        );
  }
  const md = markdown(results, cache);
  process.stdout.write(md);
  if (values.out) writeFileSync(path.resolve(values.out), md);
}

main().catch((e: unknown) => {
  process.stderr.write(`clients: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
