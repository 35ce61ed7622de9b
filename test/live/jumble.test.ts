/**
 * `goldilocks run --jumble <heuristic>` (issue 22 §3; docs/JUMBLE.md "Live"): adversarial memory in the live
 * runtime. The paper's Figure 8 (test/programs/jumble-figure8.mjs, a check-then-use loop on a racily published
 * "object") fails under Oldest-But-Different, Random and Random-But-Different and never under Sequentially-Consistent
 * or Oldest (Figure 9's row); a jumbled run recorded with values is certified by `check --adversarial` (no
 * unexplained read: every value returned was visible), torn Float64 reads included; race-free programs never offer a
 * choice; `--jumble-locations` limits the jumbled locations; misuse is an input error before the run.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { CLI, cli, cliAsync, ROOT, tempFile, tempPath } from '../helpers/helpers.js';

const PROGRAMS = join(ROOT, 'test', 'programs');
const FIGURE8 = join(PROGRAMS, 'jumble-figure8.mjs');
const TEARING = join(PROGRAMS, 'jumble-tearing.mjs');
const DATAVIEW = join(PROGRAMS, 'jumble-dataview.mjs');
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
    'DataView: gets of a jumbled location choose from its write buffer, sets feed it (Figure 8 through a DataView)',
    LIMIT,
    async () => {
      const trace = tempPath('dataview.trace');
      const [sc, oldest, obd] = await Promise.all([
        cliAsync(['run', '--jumble', 'sc', DATAVIEW]),
        cliAsync(['run', '--jumble', 'oldest', DATAVIEW]),
        cliAsync(['run', '--jumble', 'obd', '--record', trace, DATAVIEW]),
      ]);
      for (const r of [sc, oldest]) {
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(r.stderr, NULL);
      }
      // the set is a write of known value (not read from memory), the gets are jumbled reads
      assert.match(sc.stderr, /1 writes \(0 of unknown value\)/);
      assert.deepEqual(jumbleLine(sc.stderr), { reads: 20, choices: 20, stale: 0, torn: 0 });
      assert.deepEqual(jumbleLine(oldest.stderr), { reads: 10, choices: 10, stale: 10, torn: 0 });
      assert.notEqual(obd.code, 0);
      assert.match(obd.stderr, NULL);
      const a = certify(trace);
      assert.equal(a.summary.classes.unexplained, 0);
      assert.ok(a.summary.classes['stale-observed'] >= 1, JSON.stringify(a.summary));
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
    // the locations not jumbled take the plain fast path (src/live/jumble/fast.ts): still checked
    assert.match(off.stderr, /SUMMARY: fasttrack: 1 racy variables/);
    assert.match(on.stderr, NULL);
  });

  test(
    '--jumble-locations FILE:LINE:COLUMN+O/S: every buffer made at that site, read from a pipe',
    LIMIT,
    async () => {
      const program = join(PROGRAMS, 'jumble', 'instances.mjs'); // three buffers made at line 6, column 31
      const site = tempFile('site.locations', `${program}:6:31+0/4\n`);
      const size = tempFile('size.locations', `${program}:6:31+0/2\n`); // no access of 2 bytes there
      const one = tempFile('one.locations', 'sab#2+0\n');
      const [all, none, first] = await Promise.all([
        cliAsync(['run', '--jumble', 'sc', '--jumble-locations', site, program]),
        cliAsync(['run', '--jumble', 'sc', '--jumble-locations', size, program]),
        cliAsync(['run', '--jumble', 'sc', '--jumble-locations', one, program]),
      ]);
      // a witness's rerun command gives the file as a pipe, which only one reader may read
      const p = spawnSync(
        'bash',
        [
          '-c',
          `"${process.execPath}" "${CLI}" run --jumble sc --jumble-locations <(cat "${site}") "${program}"`,
        ],
        { encoding: 'utf8' },
      );
      const piped = { code: p.status, stderr: p.stderr };
      const locations = (stderr: string) => Number(/to (\d+) locations/.exec(stderr)?.[1]);
      for (const r of [all, none, first, piped]) assert.equal(r.code, 0, r.stderr);
      assert.equal(locations(all.stderr), 3);
      assert.equal(locations(none.stderr), 0);
      assert.equal(locations(first.stderr), 1);
      assert.equal(locations(piped.stderr), 3);
    },
  );

  test(
    '[GC1] live: keeps every entry a thread that may still act can read, removes what none can',
    LIMIT,
    async () => {
      const program = join(PROGRAMS, 'jumble', 'gc1.mjs');
      const log = tempPath('gc1-log');
      mkdirSync(log);
      const trace = tempPath('gc1.trace');
      const before = process.env.GOLDILOCKS_JUMBLE_LOG;
      process.env.GOLDILOCKS_JUMBLE_LOG = log;
      const running = cliAsync(['run', '--jumble', 'oldest', '--record', trace, program]);
      if (before === undefined) delete process.env.GOLDILOCKS_JUMBLE_LOG;
      else process.env.GOLDILOCKS_JUMBLE_LOG = before;
      const r = await running;
      assert.equal(r.code, 0, r.stderr);
      // the worker still sees the initial 0 after the main thread's 20 writes: none was collected while it lived
      assert.match(r.stdout, /^x 0$/m);
      assert.match(r.stdout, /^y 40$/m);
      const [stats] = readdirSync(log).filter((f) => f.endsWith('.stats'));
      const s = JSON.parse(readFileSync(join(log, stats), 'utf8')) as Record<string, number>;
      assert.equal(s.maxLength, 21); // x: the initial entry and 20 writes, all visible to the worker
      assert.ok(s.gc1Removed >= 30, JSON.stringify(s)); // y: the main thread alone, after the join
      assert.equal(s.droppedVisible, 0);
      assert.equal(s.maxWrites, 40);
      assert.ok(s.cpuMs > 0);
      // the worker's read is certified legal
      const a = certify(trace);
      assert.equal(a.summary.classes.unexplained, 0);
      assert.ok(a.summary.classes['stale-observed'] >= 1, JSON.stringify(a.summary));
    },
  );

  test('misuse is an input error before the run', () => {
    const bad = tempFile('bad.locations', 'sab#1+0\nx[3]\n');
    let r = cli(['run', '--jumble', 'obd', '--jumble-locations', bad, FIGURE8]);
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /--jumble-locations: .*line 2: 'x\[3\]' is not a location \(expected sab#B\+O or FILE:LINE:COLUMN\+O\[\/S\]\)/,
    );
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
