/**
 * What `goldilocks check`, `convert` and `--help` load (issue 21 §4): the offline checker and commander, none of the
 * live runtime (src/live/ but its option values, src/instrument/, src/hooks/, src/node/, src/sync/, the run
 * command) nor the packages only it uses (acorn, acorn-walk, amaro, eslint-scope, magic-string), nor cli-progress
 * when no bar is drawn. With the cache off, so that `check` loads its modules one by one rather than as its bundle
 * (src/cli/check-bundle.ts). The CLI runs with the preload test/fixtures/log-loads.mjs, which logs every module loaded,
 * ES module or CommonJS. Not timed: `npm run bench:start` measures the start.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CLI, ROOT, tempFile, tempPath } from '../helpers/helpers.js';

const PRELOAD = pathToFileURL(join(ROOT, 'test', 'fixtures', 'log-loads.mjs')).href;
const TRACE = tempFile('one.std', 'T0|w(x)|1\n');

/**
 * Runs the CLI with `args` under the preload. @returns the files it loaded, relative to ROOT, and the built-in
 * modules it imported or required (`node:zlib`), sorted.
 */
function loaded(args: string[]): string[] {
  const log = tempPath('loads.txt');
  const r = spawnSync(process.execPath, ['--import', PRELOAD, CLI, ...args], {
    // the cache off: `check` loads the modules themselves rather than its bundle (test/node/check-code-cache.test.ts),
    // whose lazily initialized parts are these modules' lazy imports
    env: { ...process.env, LOG_LOADS: log, GOLDILOCKS_CACHE: 'off' },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  const files = new Set<string>();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (line.startsWith('file:')) files.add(relative(ROOT, fileURLToPath(line)));
    else if (line.startsWith('/')) files.add(relative(ROOT, line));
    else if (line.startsWith('node:')) files.add(line);
  }
  return [...files].sort();
}

/** The package a file of node_modules/ belongs to, or undefined. */
function packageOf(file: string): string | undefined {
  const parts = file.split('/');
  const i = parts.lastIndexOf('node_modules');
  if (i < 0) return undefined;
  return parts[i + 1].startsWith('@') ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1];
}

const LIVE_DIRS = ['dist/live/', 'dist/instrument/', 'dist/hooks/', 'dist/node/', 'dist/sync/'];
/** What the live half needs of src/live/: the values of `run`'s options, offered by the CLI. */
const LIVE_ALLOWED = new Set(['dist/live/options.js']);
const LIVE_PACKAGES = new Set([
  'acorn',
  'acorn-walk',
  'amaro',
  'eslint-scope',
  'magic-string',
  'cli-progress',
]);

/** The files of `files` that belong to the live half, or are packages that only it (or a progress bar) uses. */
function liveModules(files: string[]): string[] {
  return files.filter(
    (f) =>
      (LIVE_DIRS.some((d) => f.startsWith(d)) && !LIVE_ALLOWED.has(f)) ||
      f === 'dist/cli/run.js' ||
      f === 'dist/cli/record.js' ||
      LIVE_PACKAGES.has(packageOf(f) ?? ''),
  );
}

describe('start-up: check, convert and --help load none of the live runtime', () => {
  it('goldilocks --help loads commander and the option values alone', () => {
    const files = loaded(['--help']);
    assert.deepEqual(liveModules(files), []);
    assert.ok(files.includes('dist/cli/main.js'), files.join('\n'));
    // commander's ES module wrapper, and the CommonJS modules it requires: the log sees both kinds
    assert.ok(
      files.some((f) => packageOf(f) === 'commander' && f.endsWith('esm.mjs')),
      files.join('\n'),
    );
    assert.ok(
      files.some((f) => packageOf(f) === 'commander' && f.endsWith('lib/command.js')),
      files.join('\n'),
    );
    assert.deepEqual(
      files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/cli/')),
      ['dist/detectors/names.js', 'dist/live/options.js', 'dist/model/errors.js', 'dist/trace/options.js'],
    );
  });

  it('goldilocks check of a one-line trace', () => {
    const files = loaded(['check', TRACE]);
    assert.deepEqual(liveModules(files), []);
    assert.ok(files.includes('dist/check.js') && files.includes('dist/cli/check.js'), files.join('\n'));
    assert.ok(
      !files.includes('dist/trace/split.js') && !files.includes('dist/cli/convert.js'),
      files.join('\n'),
    );
  });

  it('goldilocks convert of a one-line trace', () => {
    const files = loaded(['convert', TRACE]);
    assert.deepEqual(liveModules(files), []);
    assert.ok(files.includes('dist/cli/convert.js'), files.join('\n'));
    assert.ok(!files.includes('dist/check.js') && !files.includes('dist/cli/check.js'), files.join('\n'));
  });
});

/** The offline detectors' modules, each loaded only when a check names it. */
const DETECTOR_FILES = {
  goldilocks: 'dist/detectors/goldilocks/goldilocks.js',
  eager: 'dist/detectors/eager/eager.js',
  djit: 'dist/detectors/vectorclock/djit.js',
  fasttrack: 'dist/detectors/vectorclock/fasttrack.js',
  eraser: 'dist/detectors/eraser/eraser.js',
};
const detectorsLoaded = (files: string[]): string[] =>
  Object.entries(DETECTOR_FILES)
    .filter(([, file]) => files.includes(file))
    .map(([name]) => name);
/** What only a large or gzip'd input needs: parser threads, the processors' count, gunzip. */
const READING_THREADS = ['dist/trace/pipeline.js', 'dist/trace/split.js', 'node:worker_threads', 'node:os'];

describe('start-up: a check loads what its input and options need (issue 21 §4)', () => {
  it('a one-line trace: the goldilocks detector alone; no parser threads, zlib or perf_hooks', () => {
    const files = loaded(['check', TRACE]);
    assert.deepEqual(detectorsLoaded(files), ['goldilocks']);
    for (const f of [...READING_THREADS, 'node:zlib', 'node:perf_hooks', 'dist/engine/skip.js'])
      assert.ok(!files.includes(f), `${f} loaded:\n${files.join('\n')}`);
    assert.ok(files.includes('dist/report/text.js'), files.join('\n'));
  });

  it('--detector fasttrack,eraser: those two detectors only', () => {
    assert.deepEqual(detectorsLoaded(loaded(['check', '-d', 'fasttrack,eraser', TRACE])), [
      'fasttrack',
      'eraser',
    ]);
  });

  it('--json: neither the text report nor picocolors, unless --stats', () => {
    const files = loaded(['check', '--json', TRACE]);
    assert.ok(files.includes('dist/report/json.js'), files.join('\n'));
    assert.ok(!files.includes('dist/report/text.js'), files.join('\n'));
    assert.ok(!files.some((f) => packageOf(f) === 'picocolors'), files.join('\n'));
    assert.ok(loaded(['check', '--json', '--stats', TRACE]).includes('dist/report/text.js'));
  });

  it("a gzip'd trace loads zlib, and still no parser threads", () => {
    const files = loaded(['check', tempFile('one.std.gz', gzipSync('T0|w(x)|1\n'))]);
    assert.ok(files.includes('node:zlib'), files.join('\n'));
    for (const f of READING_THREADS) assert.ok(!files.includes(f), `${f} loaded:\n${files.join('\n')}`);
  });
});

/** The executable of package.json `bin` (src/cli/main.cts), which `dist/cli/main.js` (the tests' CLI) runs too. */
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.goldilocks as string);
/** A CommonJS preload (`--require`: it starts no ES module loader itself) that says whether Node's did start. */
const ESM_PROBE = tempFile(
  'esm-probe.cjs',
  "const loaded = () => process.moduleLoadList.includes('NativeModule internal/modules/esm/translators');\n" +
    "process.on('exit', () => require('node:fs').writeSync(2, 'esm loader: ' + loaded() + '\\n'));\n",
);
/** 9 MiB of events: a file `check` reads in a parser thread, started by the executable before the check loads. */
const LARGE = tempFile(
  'large.std',
  Array.from(
    { length: 500_000 },
    (_, i) => `T${i % 4}|${i % 3 === 0 ? 'r' : 'w'}(v${i % 1000})|${i % 100}\n`,
  ).join(''),
);

/** `check --json` of `trace` by `cli` under {@link ESM_PROBE}: whether the ES module loader started, and the report. */
function probed(cli: string, trace: string): { esm: string; report: string } {
  const r = spawnSync(process.execPath, ['--require', ESM_PROBE, cli, 'check', '--json', trace], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.stringify(JSON.parse(r.stdout), (k, v) =>
    /^(timeMs|eventsPerSecond)$/.test(k) ? undefined : v,
  );
  return { esm: /esm loader: (\w+)/.exec(r.stderr)?.[1] ?? r.stderr, report };
}

describe('start-up: the executable checks without starting an ES module loader (issue 24 §3)', () => {
  for (const [name, trace] of [
    ['a small trace', tempFile('race.std', 'T0|w(x)|1\nT1|w(x)|2\n')],
    ['a trace read by a parser thread', LARGE],
  ])
    it(name, () => {
      const bin = probed(BIN, trace);
      assert.equal(bin.esm, 'false');
      // the probe tells: through dist/cli/main.js, an ES module, the loader starts; the report is the same
      const viaModule = probed(CLI, trace);
      assert.equal(viaModule.esm, 'true');
      assert.equal(bin.report, viaModule.report);
    });
});
