/**
 * The worker programs of test/programs/ (issue: a suite of small racy and race-free programs with expected
 * verdicts). Each program starts with `// expect: race` or `// expect: no race` and a `// idiom:` line; a racy
 * one marks the source lines of its two racing accesses with a trailing `// race`.
 *
 * For every program: (a) plain `node` runs it to exit code 0 (the programs are deterministic and do not depend on
 * the detector); (b) `goldilocks run --on-race=report --report <json> --record <trace>` gives the expected verdict
 * (`summary.racyVariables > 0` ⇔ `expect: race`) and, for a racy program, the first race names exactly the two
 * marked lines; so does (c) `--detector fasttrack` (the vector-clock peer: the same happens-before), run with
 * `--record <trace>`, and `goldilocks check` of its recorded trace reports the same pairs of source locations as
 * that live run, pairs with an atomic access included (docs/RUNTIME.md "Recording"; a recorded run has no
 * same-epoch filter, so the goldilocks run is the one that has it); (d) under
 * `--detector eraser` (imprecise) a racy program is warned about unless its racing pair is a write then a read of
 * another thread (Eraser's Exclusive → Shared, which never warns) or ends with an atomic access (its pseudo-lock
 * starts the candidate lockset). (b)–(d) are skipped while the built CLI has no
 * `run` command. Two runs at a time. With `GOLDILOCKS_PEERS_TABLE=<file>` the verdicts of (b)–(d) are written to
 * <file> as the Markdown table of docs/RESULTS.md "Online peers".
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLI, locationPairs, tempPath } from '../helpers/helpers.js';

const DIR = join(import.meta.dirname, '..', 'programs');
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

function load(file: string, sub = ''): Program {
  const name = sub ? `${sub}-${file}` : file;
  const path = join(DIR, sub, file);
  const source = readFileSync(path, 'utf8');
  const lines = source.split('\n');
  const expect = /^\/\/ expect: (race|no race)$/.exec(lines[0] ?? '');
  const idiom = /^\/\/ idiom: (.+)$/.exec(lines[1] ?? '');
  const marked: number[] = [];
  lines.forEach((l, i) => {
    if (l.trimEnd().endsWith('// race') && !l.trimStart().startsWith('//')) marked.push(i + 1);
  });
  return {
    name,
    path,
    race: expect?.[1] === 'race',
    idiom: idiom?.[1] ?? '',
    marked,
    source,
  };
}

const programsIn = (sub: string): Program[] =>
  readdirSync(join(DIR, sub))
    .filter((f) => f.endsWith('.mjs') && f !== HELPER)
    .sort()
    .map((f) => load(f, sub));
const PROGRAMS = programsIn('');
/**
 * The programs of `stm/`, with transactions (issue 23 §2), checked as the others are. A program whose third line
 * is `// eraser: silent (...)` must get no warning from Eraser, whose transaction pseudo-lock TL keeps two
 * transactional accesses from warning.
 */
const STM_PROGRAMS = programsIn('stm');

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

/** The precise detectors of `goldilocks run`: their verdicts must be the expected ones. */
const PRECISE = ['goldilocks', 'fasttrack'] as const;
const DETECTORS = [...PRECISE, 'eraser'] as const;
type Detector = (typeof DETECTORS)[number];

interface Report {
  detector: string;
  precise: boolean;
  summary: { racyVariables: number };
  races: { current: Access; previous: Access }[];
}

/** The detector whose run is also recorded (`--record`), and where its trace goes. */
const RECORDED: Detector = 'fasttrack';
const traces = new Map<string, string>();
const traceOf = (p: Program): string => {
  let file = traces.get(p.name);
  if (file === undefined) {
    file = tempPath(`${p.name}.trace`);
    traces.set(p.name, file);
  }
  return file;
};

/** One run per program and detector, shared by the tests that need it (the eraser test reads goldilocks' pair). */
const runs = new Map<string, Promise<{ outcome: Outcome; report: Report }>>();

/**
 * `goldilocks run --detector <detector> --on-race=report --report <json> <program>` (with `--record` for
 * {@link RECORDED}), once per program and detector.
 */
function runUnder(p: Program, detector: Detector): Promise<{ outcome: Outcome; report: Report }> {
  const key = `${p.name}\n${detector}`;
  let r = runs.get(key);
  if (!r) {
    r = (async () => {
      const file = tempPath(`${p.name}.${detector}.json`);
      const record = detector === RECORDED ? ['--record', traceOf(p)] : [];
      const outcome = await node(
        [CLI, 'run', '--detector', detector, '--on-race=report', '--report', file, ...record, p.path],
        100_000,
      );
      assert.ok(existsSync(file), `${p.name}: no ${detector} report written; ${show(outcome)}`);
      return { outcome, report: JSON.parse(readFileSync(file, 'utf8')) as Report };
    })();
    runs.set(key, r);
  }
  return r;
}

/**
 * The verdicts of every detector on every program as a Markdown table (docs/RESULTS.md, "Online peers"), with the
 * false alarms and misses of each detector. A verdict whose run failed shows as `?`.
 */
async function verdictTable(): Promise<string> {
  const mark = (p: Program, warned: boolean | undefined) =>
    warned === undefined
      ? '?'
      : warned === p.race
        ? warned
          ? 'race'
          : '–'
        : warned
          ? '**false alarm**'
          : '**missed**';
  const rows: string[] = [];
  const wrong = Object.fromEntries(DETECTORS.map((d) => [d, { falseAlarms: 0, misses: 0 }]));
  for (const p of PROGRAMS) {
    const cells: string[] = [];
    for (const d of DETECTORS) {
      const r = await runs.get(`${p.name}\n${d}`)?.catch(() => undefined);
      const warned = r && r.report.summary.racyVariables > 0;
      if (warned !== undefined && warned !== p.race) wrong[d][warned ? 'falseAlarms' : 'misses']++;
      cells.push(mark(p, warned));
    }
    rows.push(`| ${p.name} | ${p.race ? 'race' : 'no race'} | ${cells.join(' | ')} |`);
  }
  const total = (k: 'falseAlarms' | 'misses') => DETECTORS.map((d) => String(wrong[d][k])).join(' | ');
  return [
    `| program | expected | ${DETECTORS.join(' | ')} |`,
    `| --- | --- | ${DETECTORS.map(() => '---').join(' | ')} |`,
    ...rows,
    `| **false alarms** (of ${PROGRAMS.filter((p) => !p.race).length} race-free) | | ${total('falseAlarms')} |`,
    `| **misses** (of ${PROGRAMS.filter((p) => p.race).length} racy) | | ${total('misses')} |`,
    '',
  ].join('\n');
}

describe('test programs', { concurrency: 2 }, () => {
  after(async () => {
    const out = process.env.GOLDILOCKS_PEERS_TABLE;
    if (out && RUNTIME) writeFileSync(out, await verdictTable());
  });

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

  test('the transactional programs: ≥ 12 with headers, racy ones marking exactly two lines', () => {
    assert.ok(STM_PROGRAMS.length >= 12, `${STM_PROGRAMS.length} programs`);
    for (const p of STM_PROGRAMS) {
      assert.match(
        p.source,
        /^\/\/ expect: (race|no race)\n\/\/ idiom: goldilocks\/stm: \S/,
        `${p.name}: header`,
      );
      assert.equal(p.marked.length, p.race ? 2 : 0, `${p.name}: lines marked // race: ${p.marked}`);
      assert.match(p.source, /from '\.\.\/sched\.mjs'/, `${p.name}: uses the shared helpers`);
    }
  });

  for (const p of [...PROGRAMS, ...STM_PROGRAMS]) {
    const verdict = p.race ? 'race' : 'no race';

    test(`${p.name}: plain node exits 0`, { timeout: 30_000 }, async () => {
      const o = await node([p.path], 25_000);
      assert.equal(o.code, 0, `${p.name} under plain node: ${show(o)}`);
    });

    for (const detector of PRECISE) {
      test(`${p.name}: goldilocks run --detector ${detector} says ${verdict}`, {
        timeout: 120_000,
        skip: !RUNTIME && NO_RUNTIME,
      }, async () => {
        const { outcome: o, report: json } = await runUnder(p, detector);
        // A race-free program must run as under plain node; a racy one may also get the CLI's "races found" code.
        assert.ok(o.code === 0 || (p.race && o.code === 1), `${p.name} under ${detector}: ${show(o)}`);
        assert.equal(json.detector, detector);
        assert.equal(json.precise, true);
        const first = json.races[0];
        assert.equal(
          json.summary.racyVariables > 0,
          p.race,
          `${p.name} (${p.idiom}): expected ${verdict}, ${detector} says ${json.summary.racyVariables} racy variables; first race ${JSON.stringify(first)}`,
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

    test(`${p.name}: the recording of the fasttrack run replays to its races`, {
      timeout: 120_000,
      skip: !RUNTIME && NO_RUNTIME,
    }, async () => {
      const { report: json } = await runUnder(p, RECORDED);
      const offline = await node([CLI, 'check', '--json', '--max-reports', '1000000', traceOf(p)], 60_000);
      assert.equal(offline.code, 0, `${p.name}: goldilocks check of the recording: ${show(offline)}`);
      const replayed = (JSON.parse(offline.stdout) as { races: { current: Access; previous: Access }[] })
        .races;
      assert.deepEqual(
        locationPairs(replayed),
        locationPairs(json.races),
        `${p.name}: pairs of the recording (check) vs pairs of the live run`,
      );
    });

    test(`${p.name}: goldilocks run --detector eraser warns where Eraser's states can see the race`, {
      timeout: 240_000,
      skip: !RUNTIME && NO_RUNTIME,
    }, async () => {
      const { outcome: o, report: json } = await runUnder(p, 'eraser');
      const warned = json.summary.racyVariables > 0;
      assert.ok(o.code === 0 || (warned && o.code === 1), `${p.name} under eraser: ${show(o)}`);
      assert.equal(json.detector, 'eraser');
      assert.equal(json.precise, false);
      if (/^.*\n.*\n\/\/ eraser: silent/.test(p.source))
        assert.equal(warned, false, `${p.name}: eraser warned: ${JSON.stringify(json.races[0])}`);
      if (!p.race || warned) return;
      // A miss is allowed only where Eraser's state machine hides the race (Savage et al. §2.2): the later access
      // of the racing pair (as the precise detector reports it) is a read of bytes another thread wrote, which
      // moves them from Exclusive to Shared, a state that never warns; or it is an atomic access, which holds its
      // range's pseudo-lock: the first access of a second thread starts the candidate lockset as the locks it
      // holds (Exclusive to Shared-Modified), so the first thread's accesses are never weighed against it.
      const pair = (await runUnder(p, 'goldilocks')).report.races[0];
      assert.ok(
        pair && ((pair.previous.access === 'write' && pair.current.access === 'read') || pair.current.atomic),
        `${p.name}: eraser missed a race whose later access is a plain write: ${JSON.stringify(pair)}`,
      );
    });
  }
});
