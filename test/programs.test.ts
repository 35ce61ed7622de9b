/**
 * The worker programs of test/programs/ (issue: a suite of small racy and race-free programs with expected
 * verdicts). Each program starts with `// expect: race` or `// expect: no race` and a `// idiom:` line; a racy
 * one marks the source lines of its two racing accesses with a trailing `// race`.
 *
 * For every program: (a) plain `node` runs it to exit code 0 (the programs are deterministic and do not depend on
 * the detector); (b) `goldilocks run --on-race=report --report <json> --record <trace>` gives the expected verdict
 * (`summary.racyVariables > 0` ⇔ `expect: race`) and, for a racy program, the first race names exactly the two
 * marked lines; (c) `goldilocks check` of the recorded trace reports the same pairs of source locations as the
 * live run, except the pairs with an atomic access, which a trace cannot express (docs/RUNTIME.md "Recording").
 * (b) and (c) are skipped while the built CLI has no `run` command. Two programs run at a time.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLI, locationPairs, tempPath } from './helpers.js';

const DIR = join(import.meta.dirname, 'programs');
/** The scheduler and spawn/join helpers the programs share; not a program. */
const HELPER = 'sched.mjs';

interface Program {
  name: string;
  path: string;
  race: boolean;
  idiom: string;
  /** 1-based lines ending in `// race` (code lines only). */
  marked: number[];
  source: string;
}

function load(name: string): Program {
  const path = join(DIR, name);
  const source = readFileSync(path, 'utf8');
  const lines = source.split('\n');
  const expect = /^\/\/ expect: (race|no race)$/.exec(lines[0] ?? '');
  const idiom = /^\/\/ idiom: (.+)$/.exec(lines[1] ?? '');
  const marked: number[] = [];
  lines.forEach((l, i) => {
    if (l.trimEnd().endsWith('// race') && !l.trimStart().startsWith('//')) marked.push(i + 1);
  });
  return { name, path, race: expect?.[1] === 'race', idiom: idiom?.[1] ?? '', marked, source };
}

const PROGRAMS = readdirSync(DIR)
  .filter((f) => f.endsWith('.mjs') && f !== HELPER)
  .sort()
  .map(load);

/** `goldilocks run` exists once `run --help` succeeds and documents `--on-race` (commander prints the top-level help, exit 0, for an unknown command with --help). */
const help = spawnSync(process.execPath, [CLI, 'run', '--help'], { encoding: 'utf8' });
const RUNTIME = help.status === 0 && help.stdout.includes('--on-race');
const NO_RUNTIME =
  'goldilocks run is not available yet (dist/cli/main.js run --help does not offer --on-race)';

interface Outcome {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Runs `node ...args`; resolves with its exit code and output (killed after `timeoutMs`). */
function node(args: string[], timeoutMs: number): Promise<Outcome> {
  return new Promise((done) => {
    execFile(process.execPath, args, { timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
      const e = err as (Error & { code?: number | string; signal?: string }) | null;
      done({
        code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
        signal: e?.signal ?? null,
        stdout,
        stderr,
      });
    });
  });
}

const show = (o: Outcome) => `exit ${o.code ?? o.signal}\n--- stdout\n${o.stdout}\n--- stderr\n${o.stderr}`;

/** `file:line:col` (file a path, a file URL or `[worker eval]`) → file and line. */
function parseLocation(loc: string): { file: string; line: number } {
  const m = /^(.*):(\d+):(\d+)$/.exec(loc);
  assert.ok(m, `not a file:line:col location: ${JSON.stringify(loc)}`);
  const file = m[1].startsWith('file:') ? fileURLToPath(m[1]) : m[1];
  return { file, line: Number(m[2]) };
}

const real = (p: string) => (existsSync(p) ? realpathSync(p) : resolve(p));

interface Access {
  location: string;
  thread: string;
  access: string;
  atomic?: boolean;
}

describe('test programs', { concurrency: 2 }, () => {
  test('the suite: ≥ 40 programs with headers, about half racy, racy ones marking exactly two lines', () => {
    assert.ok(PROGRAMS.length >= 40, `${PROGRAMS.length} programs`);
    for (const p of PROGRAMS) {
      assert.match(p.source, /^\/\/ expect: (race|no race)\n\/\/ idiom: \S/, `${p.name}: header`);
      assert.equal(p.marked.length, p.race ? 2 : 0, `${p.name}: lines marked // race: ${p.marked}`);
      assert.match(p.source, /from '\.\/sched\.mjs'/, `${p.name}: uses the shared helpers`);
    }
    const racy = PROGRAMS.filter((p) => p.race).length;
    assert.ok(racy >= 0.4 * PROGRAMS.length && racy <= 0.6 * PROGRAMS.length, `${racy} racy`);
  });

  for (const p of PROGRAMS) {
    const verdict = p.race ? 'race' : 'no race';

    test(`${p.name}: plain node exits 0`, { timeout: 30_000 }, async () => {
      const o = await node([p.path], 25_000);
      assert.equal(o.code, 0, `${p.name} under plain node: ${show(o)}`);
    });

    test(`${p.name}: goldilocks run says ${verdict}; its recording replays to the same races`, {
      timeout: 120_000,
      skip: !RUNTIME && NO_RUNTIME,
    }, async () => {
      const report = tempPath(`${p.name}.json`);
      const trace = tempPath(`${p.name}.trace`);
      const o = await node(
        [CLI, 'run', '--on-race=report', '--report', report, '--record', trace, p.path],
        100_000,
      );
      // A race-free program must run as under plain node; a racy one may also get the CLI's "races found" code.
      assert.ok(o.code === 0 || (p.race && o.code === 1), `${p.name} under goldilocks run: ${show(o)}`);
      assert.ok(existsSync(report), `${p.name}: no report written; ${show(o)}`);
      const json = JSON.parse(readFileSync(report, 'utf8'));
      const races = json.races as { current: Access; previous: Access }[];
      const offline = await node([CLI, 'check', '--json', '--max-reports', '1000000', trace], 60_000);
      assert.equal(offline.code, 0, `${p.name}: goldilocks check of the recording: ${show(offline)}`);
      const replayed = (JSON.parse(offline.stdout) as { races: { current: Access; previous: Access }[] })
        .races;
      assert.deepEqual(
        locationPairs(replayed),
        locationPairs(races.filter((r) => !r.current.atomic && !r.previous.atomic)),
        `${p.name}: pairs of the recording (check) vs pairs of the live run without atomic accesses`,
      );
      const first = races[0] as { current: Access; previous: Access } | undefined;
      const found = json.summary.racyVariables > 0;
      assert.equal(
        found,
        p.race,
        `${p.name} (${p.idiom}): expected ${verdict}, report says ${json.summary.racyVariables} racy variables; first race ${JSON.stringify(first)}`,
      );
      if (!p.race) return;
      assert.ok(first, `${p.name}: racyVariables > 0 but no races listed`);
      const self = real(p.path);
      const lines = [first.current, first.previous].map((a) => {
        const { file, line } = parseLocation(a.location);
        assert.ok(
          file === '[worker eval]' || real(file) === self,
          `${p.name}: race located in ${a.location}`,
        );
        return line;
      });
      assert.deepEqual(
        lines.sort((x, y) => x - y),
        p.marked,
        `${p.name}: first race at ${first.current.location} (${first.current.access}) / ${first.previous.location} (${first.previous.access}), marked lines ${p.marked}`,
      );
    });
  }
});
