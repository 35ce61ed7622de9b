/**
 * `goldilocks run --jumble <heuristic>` (issue 22 §3; docs/JUMBLE.md "Live"): adversarial memory in the live
 * runtime. The paper's Figure 8 (test/programs/jumble-figure8.mjs, a check-then-use loop on a racily published
 * "object") fails under Oldest-But-Different, Random and Random-But-Different and never under Sequentially-Consistent
 * or Oldest (Figure 9's row); a jumbled run recorded with values is certified by `check --adversarial` (no
 * unexplained read: every value returned was visible), torn Float64 reads included; race-free programs never offer a
 * choice; `--jumble-locations` limits the jumbled locations; misuse is an input error before the run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { cli, cliAsync, ROOT, tempFile, tempPath } from '../helpers/helpers.js';

const PROGRAMS = join(ROOT, 'test', 'programs');
const FIGURE8 = join(PROGRAMS, 'jumble-figure8.mjs');
const TEARING = join(PROGRAMS, 'jumble-tearing.mjs');
const LIMIT = { timeout: 120_000 };
const NULL = /TypeError( \[Error\])?: Cannot read properties of null \(reading draw\)/;

/** The counters of the summary line `goldilocks: jumble: …` on stderr. */
function jumbleLine(stderr: string): { reads: number; choices: number; stale: number; torn: number } {
  const m =
    /goldilocks: jumble: (\d+) reads of jumbled locations, (\d+) with a choice, (\d+) returned an older value \((\d+) torn\)/.exec(
      stderr,
    );
  assert.ok(m !== null, stderr);
  return { reads: Number(m[1]), choices: Number(m[2]), stale: Number(m[3]), torn: Number(m[4]) };
}

interface Adversarial {
  summary: { classes: Record<string, number> };
  examples: Record<string, { location: string; value: string; alternatives: { value: string }[] }[]>;
}

/** `check --adversarial --json` of a trace. */
function certify(trace: string): Adversarial {
  const c = cli(['check', '--adversarial', '--json', '--max-reports', '100', trace]);
  assert.equal(c.status, 0, c.stderr);
  return (JSON.parse(c.stdout) as { adversarial: Adversarial }).adversarial;
}

describe('goldilocks run --jumble', () => {
  test(
    'Figure 8: fails under obd, random and rbd (seed 0), never under sc and oldest (the paper’s Figure 9)',
    LIMIT,
    async () => {
      const runs = async (hs: string[]) =>
        Promise.all(hs.map((h) => cliAsync(['run', '--jumble', h, FIGURE8])));
      const [sc, oldest] = await runs(['sc', 'oldest']);
      const [obd, random, rbd] = await runs(['obd', 'random', 'rbd']);
      for (const r of [sc, oldest]) {
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(r.stderr, NULL);
      }
      // sc: every read had a choice and returned the newest value; oldest: always the initial 0, so never a use
      assert.deepEqual(jumbleLine(sc.stderr), { reads: 20, choices: 20, stale: 0, torn: 0 });
      assert.deepEqual(jumbleLine(oldest.stderr), { reads: 10, choices: 10, stale: 10, torn: 0 });
      for (const r of [obd, random, rbd]) {
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, NULL);
        assert.ok(jumbleLine(r.stderr).stale > 0);
      }
    },
  );

  test(
    'certification: a jumbled run recorded with values is certified by check --adversarial',
    LIMIT,
    async () => {
      const traces = [tempPath('obd.trace'), tempPath('torn.trace')];
      const [obd, torn] = await Promise.all([
        cliAsync(['run', '--jumble', 'obd', '--record', traces[0], FIGURE8]),
        cliAsync(['run', '--jumble', 'oldest', '--record', traces[1], TEARING]),
      ]);
      assert.match(obd.stderr, NULL);
      const a = certify(traces[0]);
      assert.equal(a.summary.classes.unexplained, 0);
      assert.equal(a.summary.classes['future-read'], 0);
      assert.ok(a.summary.classes['stale-observed'] >= 2, JSON.stringify(a.summary));
      // tearing: the read combines the zero half of the initial value with a half of 1.1 (Float64 may tear)
      assert.equal(torn.code, 0, torn.stderr);
      assert.equal(jumbleLine(torn.stderr).torn, 1);
      const t = certify(traces[1]);
      assert.equal(t.summary.classes.unexplained, 0);
      const [read] = t.examples['stale-observed'].filter((e) => e.location.startsWith(TEARING));
      assert.ok(read !== undefined, JSON.stringify(t.examples));
      assert.ok(!read.alternatives.some((x) => x.value === read.value), read.value);
    },
  );

  test('race-free programs: no read has a choice, nothing fails', LIMIT, async () => {
    const names = ['float64-mutex.mjs', 'barrier-atomics.mjs', 'dcl.mjs', 'jumble-figure8-published.mjs'];
    const runs = await Promise.all(
      names.map((n) => cliAsync(['run', '--jumble', 'random', join(PROGRAMS, n)])),
    );
    for (const r of runs) {
      assert.equal(r.code, 0, r.stderr);
      const line = jumbleLine(r.stderr);
      assert.ok(line.reads > 0);
      assert.equal(line.choices, 0);
    }
  });

  test('--jumble-locations: only the named locations are jumbled', LIMIT, async () => {
    const report = tempPath('figure8.json');
    const plain = await cliAsync(['run', '--on-race', 'report', '--report', report, FIGURE8]);
    assert.equal(plain.code, 0, plain.stderr);
    const { racyVariables } = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
    assert.equal(racyVariables.length, 1);
    const [variable] = racyVariables; // sab#B+0
    const other = tempFile('other.locations', `# not the racy one\n${variable.replace(/\+0$/, '+4')}\n`);
    const racy = tempFile('racy.locations', `${variable}\n`);
    const [off, on] = await Promise.all([
      cliAsync(['run', '--jumble', 'obd', '--jumble-locations', other, FIGURE8]),
      cliAsync(['run', '--jumble', 'obd', '--jumble-locations', racy, FIGURE8]),
    ]);
    assert.equal(off.code, 0, off.stderr);
    assert.equal(jumbleLine(off.stderr).reads, 0);
    assert.match(on.stderr, NULL);
  });

  test('misuse is an input error before the run', () => {
    const bad = tempFile('bad.locations', 'sab#1+0\nx[3]\n');
    let r = cli(['run', '--jumble', 'obd', '--jumble-locations', bad, FIGURE8]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--jumble-locations: .*line 2: 'x\[3\]' is not a location \(expected sab#B\+O\)/);
    r = cli(['run', '--jumble-seed', '3', FIGURE8]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--jumble-seed: only with --jumble/);
    r = cli(['run', '--jumble', 'newest', FIGURE8]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--jumble/);
    r = cli(['run', '--jumble', 'obd', '--jumble-fairness', '0', FIGURE8]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--jumble-fairness: fairness '0'/);
  });
});

describe('check --adversarial: torn 8-byte values', () => {
  test('a value made of the halves of two visible writes is explained (stale-observed), others are not', () => {
    const trace = tempFile(
      'torn.trace',
      [
        'T0|fork(T1)|',
        'T0|w(x)=0x1111111122222222|',
        'T0|w(x)=0x3333333344444444|',
        'T1|r(x)=0x1111111144444444|a',
        'T1|r(x)=0x0000000022222222|b',
        'T1|r(x)=0x5555555544444444|c',
        '',
      ].join('\n'),
    );
    const a = certify(trace);
    assert.equal(a.summary.classes['stale-observed'], 2);
    assert.equal(a.summary.classes.unexplained, 1);
    assert.deepEqual(
      a.examples.unexplained.map((e) => e.location),
      ['c'],
    );
  });
});
