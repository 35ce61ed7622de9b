/**
 * Range checks of loops under `goldilocks run` (issue 24 §1, `src/live/spans.ts`), differentially: each program of
 * test/programs/range-loop-*.mjs and review-*.mjs (the precision review's attacks on range checks and covered loops),
 * and the kernels sor, lufact, moldyn and crypt (size tiny) give the same races (the same pairs of
 * accesses, kinds and threads) and the same output with range checks as without them (`GOLDILOCKS_RANGES=0`: every
 * access checked on its own), under goldilocks and fasttrack; the race-free ones took range checks (the `ranges`
 * counter, which counts the cover checks of covered loops too); moldyn's loops are covered ones. Under
 * `--on-race=throw` the racing loop throws at its racing element, after writing the ones before it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI, ROOT, tempPath } from '../helpers/helpers.js';

const PROGRAMS = join(ROOT, 'test', 'programs');
const KERNELS = join(ROOT, 'bench', 'kernels');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, 'run', ...args],
      { timeout: 120_000, encoding: 'utf8', env: { ...process.env, ...env } },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: number | string }) | null;
        done({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout, stderr });
      },
    );
  });
}

interface Access {
  location: string;
  thread: string;
  access: string;
}
interface Report {
  summary: { racyVariables: number };
  races: { variable: string; current: Access; previous: Access }[];
  stats: { ranges: number };
}

/** `run --on-race=report` of `args` with range checks on or off: its report and output. */
async function reported(name: string, detector: string, ranges: boolean, args: string[]) {
  const file = tempPath(`${name}.${detector}.${ranges ? 'ranges' : 'accesses'}.json`);
  const o = await run(
    ['--detector', detector, '--on-race=report', '--report', file, ...args],
    ranges ? {} : { GOLDILOCKS_RANGES: '0' },
  );
  assert.equal(o.code, 0, `${name}: exit ${o.code}\n${o.stderr}`);
  const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  const races = report.races
    .map((r) =>
      [
        r.variable,
        r.current.thread,
        r.current.access,
        r.current.location,
        r.previous.thread,
        r.previous.access,
        r.previous.location,
      ].join(' '),
    )
    .sort();
  return { report, races, stdout: o.stdout };
}

/** The programs whose loops take range checks (the others' loops are each refused for the reason they test). */
const RANGED = new Set([
  'range-loop-alias.mjs',
  'range-loop-bytes.mjs',
  'range-loop-callee.mjs',
  'range-loop-captured.mjs',
  'range-loop-columns.mjs',
  'range-loop-counter.mjs',
  'range-loop-covered-continue.mjs',
  'range-loop-covered-write-race.mjs',
  'range-loop-down.mjs',
  'range-loop-empty.mjs',
  'range-loop-for-of.mjs',
  'range-loop-forms.mjs',
  'range-loop-halves.mjs',
  'range-loop-lanes.mjs',
  'range-loop-length.mjs',
  'range-loop-math-ordered.mjs',
  'range-loop-member-length.mjs',
  'range-loop-member-numbers.mjs',
  'range-loop-member-views.mjs',
  'range-loop-module-binding.mjs',
  'range-loop-module-constant.mjs',
  'range-loop-opaque-math-patched.mjs',
  'range-loop-opaque-proxy.mjs',
  'range-loop-opaque-setter-race.mjs',
  'range-loop-opaque-setter-sync.mjs',
  'range-loop-opaque-strided.mjs',
  'range-loop-parity.mjs',
  'range-loop-redundant.mjs',
  'range-loop-row-views.mjs',
  'range-loop-rows.mjs',
  'range-loop-shared-midway.mjs',
  'range-loop-shift-halves.mjs',
  'range-loop-top-level.mjs',
  'range-loop-word-lanes.mjs',
  'review-bytes-offset.mjs',
  'review-const-shadow.mjs',
  'review-dataview-covered.mjs',
  'review-fork-midway.mjs',
  'review-negative-stride.mjs',
  'review-opaque-release.mjs',
  'review-proxy-view.mjs',
  'review-unrolled-lanes.mjs',
]);

const programs = readdirSync(PROGRAMS)
  .filter((f) => (f.startsWith('range-loop-') || f.startsWith('review-')) && f.endsWith('.mjs'))
  .sort();

describe('range checks give the races of per-access checks', () => {
  for (const detector of ['goldilocks', 'fasttrack'])
    for (const f of programs)
      test(`${f} (${detector})`, async () => {
        const args = [join(PROGRAMS, f)];
        const [on, off] = await Promise.all([
          reported(f, detector, true, args),
          reported(f, detector, false, args),
        ]);
        assert.deepEqual(on.races, off.races);
        assert.equal(on.stdout, off.stdout);
        assert.equal(off.report.stats.ranges, 0);
        const race = readFileSync(join(PROGRAMS, f), 'utf8').startsWith('// expect: race');
        assert.equal(on.report.summary.racyVariables > 0, race);
        if (RANGED.has(f)) assert.ok(on.report.stats.ranges > 0, `${f}: no range check taken`);
      });

  for (const kernel of ['sor', 'lufact', 'moldyn', 'crypt'])
    test(`the ${kernel} kernel, size tiny, 2 workers`, async () => {
      const args = [
        '--',
        'node',
        join(KERNELS, `${kernel}.mjs`),
        '--workers',
        '2',
        '--size',
        'tiny',
        '--verify',
      ];
      const [on, off] = await Promise.all([
        reported(kernel, 'goldilocks', true, args),
        reported(kernel, 'goldilocks', false, args),
      ]);
      assert.deepEqual(on.races, []);
      assert.deepEqual(off.races, []);
      const result = (s: string) => JSON.parse(s.trim().split('\n').at(-1) ?? '{}');
      assert.equal(result(on.stdout).checksum, result(off.stdout).checksum);
      assert.equal(result(on.stdout).verified, true);
      assert.ok(on.report.stats.ranges > 0);
    });
});

describe("range checks of a CommonJS file's top-level loops (its bindings are locals of Node's wrapper)", () => {
  const FIXTURE = join(ROOT, 'test', 'fixtures', 'runtime', 'top-level-loops.cjs');
  for (const race of [false, true])
    test(`take the range check, the races those of per-access checks (${race ? 'racy' : 'race-free'})`, async () => {
      const args = [FIXTURE, ...(race ? ['race'] : [])];
      const [on, off] = await Promise.all([
        reported(`top-level-loops-${race}`, 'goldilocks', true, args),
        reported(`top-level-loops-${race}`, 'goldilocks', false, args),
      ]);
      assert.ok(on.report.stats.ranges > 0, 'no range check taken');
      assert.deepEqual(on.races, off.races);
      assert.equal(on.races.length > 0, race);
      assert.equal(on.stdout, off.stdout);
    });
});

describe('range checks under --on-race=throw', () => {
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`the racing loop throws at its racing element (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-race.mjs')]);
      assert.match(o.stdout, /thrown at element 5, before its write/, o.stderr);
      assert.match(o.stderr, /range-loop-race\.mjs:8:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop indexed by a counter throws at its racing element (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-counter-race.mjs')]);
      assert.match(o.stdout, /thrown in b's loop\n/, o.stderr);
      assert.match(o.stdout, /elements 16-23 after the joins: 2,4,6,8,-1,0,0,0\n/);
      assert.match(o.stderr, /range-loop-counter-race\.mjs:10:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop bounded by a.length throws at its racing element (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-length-race.mjs')]);
      assert.match(o.stdout, /thrown in worker 1's loop\n/, o.stderr);
      assert.match(o.stdout, /elements after the joins: 2,2,2,2,2,1,0,0,0,0\n/);
      assert.match(o.stderr, /range-loop-length-race\.mjs:10:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing write after a continue in a covered loop throws before it runs (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-covered-write-race.mjs')]);
      assert.match(o.stdout, /thrown in worker 1's loop\n/, o.stderr);
      assert.match(o.stdout, /elements after the joins: 0,0,0,0,0,0,0,0\n/);
      assert.match(o.stderr, /range-loop-covered-write-race\.mjs:16:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop over bytes throws at its racing byte, after the bytes before it (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-bytes-race.mjs')]);
      assert.match(o.stdout, /thrown at element 6, before its write\n/, o.stderr);
      assert.match(o.stderr, /range-loop-bytes-race\.mjs:11:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop over every second Float64 element throws at its racing element (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-word-lanes-race.mjs')]);
      assert.match(o.stdout, /thrown at element 11, before its write\n/, o.stderr);
      assert.match(o.stderr, /range-loop-word-lanes-race\.mjs:9:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop that skips every second iteration throws at its racing element (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-parity-race.mjs')]);
      assert.match(o.stdout, /thrown at element 11, before its write\n/, o.stderr);
      assert.match(o.stderr, /range-loop-parity-race\.mjs:11:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop over a column of a flat matrix throws at its racing row (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-columns-race.mjs')]);
      assert.match(o.stdout, /thrown at row 5, before its write\n/, o.stderr);
      assert.match(o.stderr, /range-loop-columns-race\.mjs:11:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop going down throws at its racing element, the ones above it written (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-down-race.mjs')]);
      assert.match(o.stdout, /thrown at element 11, before its write\n/, o.stderr);
      assert.match(o.stderr, /range-loop-down-race\.mjs:9:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop over a member view throws at its racing element, after the ones before it (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-member-views-race.mjs')]);
      assert.match(o.stdout, /DataRaceException at element 40\n/, o.stderr);
      assert.match(o.stderr, /range-loop-member-views-race\.mjs:22:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop bounded and indexed by member numbers throws at its racing element, after the ones before it (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-member-numbers-race.mjs')]);
      assert.match(o.stdout, /DataRaceException at element 40\n/, o.stderr);
      assert.match(o.stderr, /range-loop-member-numbers-race\.mjs:24:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop over an enclosing function's variables throws at its racing element, after the ones before it (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-captured-race.mjs')]);
      assert.match(o.stdout, /DataRaceException at element 40\n/, o.stderr);
      assert.match(o.stderr, /range-loop-captured-race\.mjs:20:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop bounded by its member view's length throws at its racing element, after the ones before it (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-member-length-race.mjs')]);
      assert.match(o.stdout, /DataRaceException at element 40\n/, o.stderr);
      assert.match(o.stderr, /range-loop-member-length-race\.mjs:21:/);
    });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing loop with a redundant conditional read throws at its if's read of the racing element (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-redundant-race.mjs')]);
      assert.match(o.stdout, /DataRaceException at element 40\n/, o.stderr);
      assert.match(o.stderr, /range-loop-redundant-race\.mjs:16:42/);
    });
  for (const [file, line, form] of [
    ['range-loop-while-race.mjs', 17, 'a while loop'],
    ['range-loop-until-race.mjs', 15, 'a loop bounded by !== going down'],
    ['range-loop-outer-var-race.mjs', 17, 'a loop over a variable declared before it'],
  ] as const)
    for (const detector of ['goldilocks', 'fasttrack'])
      test(`a racing range-checked ${form} throws at its racing element, after the ones before it (${detector})`, async () => {
        const o = await run(['--detector', detector, join(PROGRAMS, file)]);
        assert.match(o.stdout, /DataRaceException at element 40\n/, o.stderr);
        assert.match(o.stderr, new RegExp(`${file.replace('.', '\\.')}:${line}:`));
      });
  for (const detector of ['goldilocks', 'fasttrack'])
    test(`a racing subkey read in an unrolled inner loop throws there (${detector})`, async () => {
      const o = await run(['--detector', detector, join(PROGRAMS, 'range-loop-lanes-race.mjs')]);
      assert.match(o.stdout, /thrown in the first block, before its bytes were written\n/, o.stderr);
      assert.match(o.stderr, /range-loop-lanes-race\.mjs:19:/);
    });
});
