/**
 * `goldilocks run --fail-on-race` (issue 25 §2): every race is reported and the program goes on to its end, then the
 * exit code is 66 if any race was reported, whatever the program's own; without races, the program's own code.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const TWO_RACES = join(ROOT, 'test', 'fixtures', 'cli', 'two-races.mjs');
const LIMIT = { timeout: 60_000 };

async function run(args: string[]) {
  const report = tempPath('report.json');
  const r = await cliAsync(['run', '--report', report, ...args]);
  return { ...r, report: JSON.parse(readFileSync(report, 'utf8')) as JsonReport };
}

describe('run --fail-on-race', () => {
  test(
    'two races: both reported, the program runs to its end, exit 66 over its own code 5',
    LIMIT,
    async () => {
      const r = await run(['--fail-on-race', TWO_RACES, '5']);
      assert.equal(r.code, 66, r.stderr);
      assert.equal(r.stdout.trim(), 'a[0] = 7, a[2] = 7'); // both racing writes happened (no DataRaceException)
      assert.equal(r.report.summary.racyVariables, 2);
      assert.match(r.stderr, /SUMMARY: goldilocks: 2 racy variables/);
    },
  );

  test('--on-race=report alone: both reported, the exit code is the program’s', LIMIT, async () => {
    const r = await run(['--on-race=report', TWO_RACES, '5']);
    assert.equal(r.code, 5, r.stderr);
    assert.equal(r.report.summary.racyVariables, 2);
  });

  test('no race: the program’s own exit code', LIMIT, async () => {
    const ok = await run(['--fail-on-race', join(ROOT, 'examples', 'ownership.mjs')]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.report.summary.racyVariables, 0);
  });
});
