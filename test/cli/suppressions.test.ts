/**
 * `--suppressions FILE` of `goldilocks check` and `goldilocks run` (issue 25 §2, src/report/suppressions.ts): a
 * suppressed race is not reported, is counted in the summary (`SUMMARY:` line, `summary.suppressed`) and per
 * suppression (`suppressions` in JSON, `--stats`); a bad line is a usage error naming file:line (exit 2). Live, a
 * suppressed race neither throws nor aborts: the access happens, as under `--on-race=report`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { cli, cliAsync, ROOT, tempFile, tempPath } from '../helpers/helpers.js';

const FTP = join(ROOT, 'examples', 'figure1-ftpserver.trace');
const TWO_RACES = join(ROOT, 'test', 'fixtures', 'cli', 'two-races.mjs');
const LIMIT = { timeout: 60_000 };

describe('check --suppressions', () => {
  test('without: 4 racy variables of 5 races', () => {
    const r = cli(['check', '--json', FTP]);
    const j = JSON.parse(r.stdout) as JsonReport;
    assert.equal(j.summary.racyVariables, 4);
    assert.equal(j.summary.suppressed, undefined);
    assert.equal(j.suppressions, undefined);
  });

  test('a suppression of one method’s races: the others reported, the suppressed counted', () => {
    // Connection.java:close:5 (m_isConnectionClosed) is the only race whose first frame is line 5 of close
    const file = tempFile('one.supp', '# the closing flag\nrace_top:close:5\n\nrace:^never$\n');
    const r = cli(['check', '--json', '--fail-on-race', '--suppressions', file, FTP]);
    assert.equal(r.status, 1, r.stderr);
    const j = JSON.parse(r.stdout) as JsonReport;
    assert.equal(j.summary.racyVariables, 3);
    assert.ok(!j.racyVariables.includes('conn.m_isConnectionClosed'));
    assert.equal(j.summary.suppressed, 1);
    assert.deepEqual(j.suppressions, [
      { suppression: 'race_top:close:5', at: `${file}:2`, matched: 1 },
      { suppression: 'race:^never$', at: `${file}:4`, matched: 0 },
    ]);
  });

  test('every race suppressed: no races, exit 0 under --fail-on-race, the count in the SUMMARY line and --stats', () => {
    const file = tempFile('all.supp', 'race:Connection.java\n');
    const r = cli(['check', '--stats', '--fail-on-race', '--suppressions', file, FTP]);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /WARNING/);
    assert.match(
      r.stdout,
      /SUMMARY: goldilocks: no races .*; races not reported: 5 suppressed \(--suppressions\)\n$/,
    );
    assert.match(
      r.stdout,
      /suppressions \(races suppressed\):\n {2}race:Connection\.java \(.*all\.supp:1\) +5\n/,
    );
  });

  test('a bad line: one usage line naming file:line, exit 2, nothing checked', () => {
    const file = tempFile('bad.supp', '# fine\nrace:ok\nthread:worker\n');
    const r = cli(['check', '--suppressions', file, FTP]);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /^goldilocks: --suppressions: .*bad\.supp:3: ThreadSanitizer's 'thread:' is not a data-race suppression \(expected race:<pattern>[^\n]*\)\n$/,
    );
    const missing = cli(['check', '--suppressions', tempPath('absent.supp'), FTP]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^goldilocks: --suppressions: no such file '.*absent\.supp'/);
  });
});

describe('run --suppressions', () => {
  async function run(args: string[]) {
    const report = tempPath('report.json');
    const r = await cliAsync(['run', '--report', report, ...args]);
    return { ...r, report: JSON.parse(readFileSync(report, 'utf8')) as JsonReport };
  }

  test(
    'every race suppressed under --on-race=throw: nothing thrown, both writes happen, counted',
    LIMIT,
    async () => {
      const file = tempFile('live-all.supp', 'race:two-races.mjs\n');
      const r = await run(['--on-race=throw', '--suppressions', file, TWO_RACES]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'a[0] = 7, a[2] = 7');
      assert.doesNotMatch(r.stderr, /WARNING|DataRaceException/);
      assert.equal(r.report.summary.racyVariables, 0);
      assert.equal(r.report.summary.suppressed, 2);
      assert.deepEqual(r.report.suppressions, [
        { suppression: 'race:two-races.mjs', at: `${file}:1`, matched: 2 },
      ]);
      assert.match(
        r.stderr,
        /SUMMARY: goldilocks: no races .*; races not reported: 2 suppressed \(--suppressions\)/,
      );
    },
  );

  test('one of two suppressed, with --fail-on-race: the other reported, exit 66', LIMIT, async () => {
    const file = tempFile('live-one.supp', 'race_top:two-races.mjs:16\n');
    const r = await run(['--fail-on-race', '--suppressions', file, TWO_RACES]);
    assert.equal(r.code, 66, r.stderr);
    assert.equal(r.report.summary.racyVariables, 1);
    assert.equal(r.report.summary.suppressed, 1);
    assert.match(r.report.races[0].current.location, /two-races\.mjs:17:/);
  });

  for (const [mode, after] of [
    ['atomic', '7,1,1,1'],
    ['fill', '7,7,7,7'],
  ] as const)
    test(
      `a race found by ${mode === 'atomic' ? 'an atomic operation' : 'a bulk method'}, suppressed under --on-race=throw: the operation happens whole`,
      LIMIT,
      async () => {
        const program = join(ROOT, 'test', 'fixtures', 'cli', 'excused-race.mjs');
        const plain = await cliAsync(['run', '--on-race=throw', program, mode]);
        assert.notEqual(plain.code, 0, 'unsuppressed, the race throws in the worker');
        assert.match(plain.stderr, /DataRaceException/);
        const file = tempFile(`excused-${mode}.supp`, 'race:excused-race.mjs\n');
        const r = await run(['--on-race=throw', '--suppressions', file, program, mode]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout.trim(), `${after} (worker exit 0)`);
        assert.equal(r.report.summary.suppressed, 1);
        assert.equal(r.report.summary.racyVariables, 0);
      },
    );

  test('a bad line: a usage error before the program runs', () => {
    const file = tempFile('live-bad.supp', 'race:x\nrace_top:\n');
    const r = cli(['run', '--suppressions', file, TWO_RACES]);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^goldilocks: --suppressions: .*live-bad\.supp:2: empty pattern/);
  });
});
