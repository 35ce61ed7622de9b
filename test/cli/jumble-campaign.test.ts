/**
 * `goldilocks jumble` (issue 22 §3; docs/JUMBLE.md "Campaign"): the paper's Figure 8 program is classified
 * destructive (its controls never fail, Oldest-But-Different does) with a witness; a race-free program has nothing
 * to jumble; the Figure 9 table's shape.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { figure9, type GroupResult } from '../../src/cli/jumble-campaign.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const PROGRAMS = join(ROOT, 'test', 'programs');
const LIMIT = { timeout: 300_000 };

describe('goldilocks jumble', () => {
  test('the Figure 9 table: rates in %, reads with a choice, verdict, the witness and its rerun command', () => {
    const g: GroupResult = {
      site: null,
      variable: 'sab#2+0',
      offset: 0,
      verdict: 'destructive',
      rates: { none: 0, sc: 0, oldest: 0, obd: 0.83, random: 0.84, rbd: 0.92 },
      exercised: 12,
      witness: {
        configuration: 'obd',
        seed: 3,
        kind: 'exception',
        message: 'TypeError: x',
        command: 'goldilocks run …',
      },
    };
    const lines = figure9('p.mjs', [g], 100).split('\n');
    assert.match(lines[0], /^JUMBLE .*p\.mjs, 100 runs per configuration/);
    assert.deepEqual(lines[1].split(/ +/), [
      'location',
      'none',
      'sc',
      'oldest',
      'obd',
      'random',
      'rbd',
      'exercised',
      'verdict',
    ]);
    assert.deepEqual(lines[2].split(/ +/), ['sab#2+0', '0', '0', '0', '83', '84', '92', '12', 'destructive']);
    assert.equal(lines[3], 'witness for sab#2+0: obd seed 3, exception: TypeError: x');
    assert.equal(lines[4], '  rerun: goldilocks run …');
  });

  test('Figure 8: destructive, the controls at 0, a witness that reruns it', LIMIT, async () => {
    const json = tempPath('campaign.json');
    const r = await cliAsync([
      'jumble',
      '--runs',
      '1',
      '--jobs',
      '2',
      '--json',
      json,
      join(PROGRAMS, 'jumble-figure8.mjs'),
    ]);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(readFileSync(json, 'utf8')) as { schema: string; groups: GroupResult[] };
    assert.equal(out.schema, 'goldilocks-jumble/1');
    assert.equal(out.groups.length, 1);
    const [g] = out.groups;
    assert.equal(g.verdict, 'destructive');
    assert.deepEqual(g.rates, { none: 0, sc: 0, oldest: 0, obd: 1, random: 1, rbd: 1 });
    assert.ok(g.exercised > 0);
    assert.equal(g.witness?.configuration, 'obd');
    assert.equal(g.witness?.kind, 'exception');
    assert.match(g.witness?.message ?? '', /Cannot read properties of null/);
    assert.match(
      g.witness?.command ?? '',
      /^goldilocks run --jumble obd --jumble-seed 0 --jumble-locations <\(echo sab#\d+\+0\) /,
    );
    assert.match(r.stdout, /sab#\d+\+0 +0 +0 +0 +100 +100 +100 +\d+ +destructive/);
  });

  test('a race-free program: nothing to jumble', LIMIT, async () => {
    const r = await cliAsync(['jumble', '--runs', '1', join(PROGRAMS, 'float64-mutex.mjs')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /no racy location: nothing to jumble/);
  });
});
