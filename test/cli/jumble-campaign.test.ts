/**
 * `goldilocks jumble` (issue 22 §3; docs/JUMBLE.md "Campaign"): groups by allocation site + offset + size; failure
 * kinds (QoS, oracle) and verdicts; the Figure 9 and Figure 10 tables; the paper's Figure 8 program classified
 * destructive (its controls never fail, Oldest-But-Different does) with a witness holding the jumbled reads of the
 * failing run and a rerun command that reproduces it; `--oracle`; a race-free program has nothing to jumble.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
// the compiled campaign: its runs preload the compiled hooks (dist/node/register.js)
import { jumbledFlags, jumbledRun, runEnv, runWords } from '../../dist/cli/jumble-campaign.js';
import { groupName, groupsOf } from '../../src/cli/jumble-groups.js';
import { figure9, figure10, type GroupResult } from '../../src/cli/jumble-table.js';
import {
  CONFIGURATIONS,
  DEFAULT_QOS,
  failureOf,
  figure10Of,
  type RunResult,
  referenceOf,
  verdictOf,
} from '../../src/cli/jumble-verdict.js';
import { parseLocations, selectionOf } from '../../src/live/jumble/locations.js';
import { CLI, type CliRun, cliAsync, ROOT, tempFile, tempPath } from '../helpers/helpers.js';

const PROGRAMS = join(ROOT, 'test', 'programs');
const LIMIT = { timeout: 300_000 };

/** A campaign of one run per configuration on `program` (`options` first): its exit, output and JSON. */
async function campaign(
  program: string,
  ...options: string[]
): Promise<{ r: CliRun; out: { schema: string; groups: GroupResult[] } }> {
  const json = tempPath(`${basename(program)}.json`);
  const r = await cliAsync(['jumble', '--runs', '1', '--jobs', '2', ...options, '--json', json, program]);
  return { r, out: JSON.parse(readFileSync(json, 'utf8')) };
}

const run = (o: Partial<RunResult>): RunResult => ({
  configuration: 'sc',
  seed: 0,
  code: 0,
  stdout: 'ok\n',
  timedOut: false,
  wallMs: 1000,
  ...o,
});

describe('goldilocks jumble: groups, failures, verdicts, tables', () => {
  test('groups: allocation site + offset + size over all buffers; a variable without a site by buffer id', () => {
    const race = (variable: string, site: string, byteOffset: number, size: number) => ({
      variable,
      memory: { byteOffset, size },
      allocation: { location: site },
    });
    const groups = groupsOf({
      racyVariables: ['sab#3+0', 'sab#4+0', 'sab#3+8', 'sab#9+4'],
      races: [
        race('sab#3+0', '/p/a.mjs:6:21', 0, 4),
        race('sab#4+0', '/p/a.mjs:6:21', 0, 4), // a second instance of the same site: the same group
        race('sab#3+8', '/p/a.mjs:6:21', 8, 8),
        { variable: 'sab#9+4', memory: { byteOffset: 4, size: 2 } }, // no allocation site
      ],
    });
    assert.deepEqual(groups, [
      {
        site: '/p/a.mjs:6:21',
        offset: 0,
        size: 4,
        variables: ['sab#3+0', 'sab#4+0'],
        location: '/p/a.mjs:6:21+0/4',
      },
      { site: '/p/a.mjs:6:21', offset: 8, size: 8, variables: ['sab#3+8'], location: '/p/a.mjs:6:21+8/8' },
      { site: null, offset: 4, size: 2, variables: ['sab#9+4'], location: 'sab#9+4' },
    ]);
    assert.equal(groupName(groups[0], '/p'), 'a.mjs:6:21+0/4');
    assert.equal(groupName(groups[0], '/q'), '/p/a.mjs:6:21+0/4');
  });

  test('locations lines: by buffer id, by allocation site (every instance), with or without the access size', () => {
    const l = parseLocations(
      '# comment\n\nsab#3+8\n1/sab#3+16\n/p/a b.mjs:6:21+0/4\nfile:///p/c.mjs:2:3+12\n',
    );
    assert.deepEqual([...l.byId], [[3, [8, 16]]]);
    assert.deepEqual(
      [...l.bySite],
      [
        ['/p/a b.mjs:6:21', [0, 4]],
        ['file:///p/c.mjs:2:3', [12, 0]],
      ],
    );
    assert.deepEqual(selectionOf(l, 3, '/p/a b.mjs:6:21'), [8, 0, 16, 0, 0, 4]);
    assert.deepEqual(selectionOf(l, 7, '/p/a b.mjs:6:21'), [0, 4]);
    assert.deepEqual(selectionOf(l, 7, ''), []);
    assert.throws(() => parseLocations('/p/a.mjs:6+0'), /line 1: '\/p\/a\.mjs:6\+0' is not a location/);
    assert.throws(() => parseLocations('/p/a.mjs:6:1+0/0'), /is not a location/);
  });

  test("the runs' environment: the campaign's, without GOLDILOCKS_JUMBLE* settings; the transform cache passes", () => {
    assert.deepEqual(
      runEnv({ PATH: '/bin', GOLDILOCKS_JUMBLE: 'obd', GOLDILOCKS_JUMBLE_LOG: '/x', GOLDILOCKS_CACHE: '/c' }),
      {
        PATH: '/bin',
        GOLDILOCKS_CACHE: '/c',
      },
    );
  });

  test('failure kinds in order: hang, exception/exit, oracle, output, QoS (CPU time against the sc median)', () => {
    const none = [run({ configuration: 'none' }), run({ configuration: 'none' })];
    const sc = [1000, 1200, 1100].map((ms) => run({ stats: { cpuMs: ms, choiceReads: 1 } }));
    const ref = referenceOf(none, sc, DEFAULT_QOS, 5000);
    assert.deepEqual(ref.cost, { ms: 1100, cpu: true });
    assert.equal(ref.output, 'ok\n');
    const kind = (o: Partial<RunResult>) => failureOf(run({ configuration: 'oldest', ...o }), ref)?.kind;
    assert.equal(kind({ timedOut: true, code: null }), 'hang');
    assert.equal(kind({ code: 1, uncaught: 'TypeError: x' }), 'exception');
    assert.equal(kind({ code: null, signal: 'SIGSEGV' }), 'exit');
    assert.equal(kind({ oracle: { code: 1, message: 'wrong' } }), 'oracle');
    assert.equal(kind({ oracle: { code: 0, message: '' } }), undefined);
    assert.equal(kind({ stdout: 'ko\n' }), 'output');
    // QoS: more than 3 × 1100 ms and more than 1000 ms beyond it
    assert.equal(kind({ stats: { cpuMs: 3400 } }), 'qos');
    assert.equal(kind({ stats: { cpuMs: 3200 } }), undefined);
    assert.match(
      failureOf(run({ configuration: 'rbd', stats: { cpuMs: 3400 } }), ref)?.message ?? '',
      /CPU time 3400 ms, 3\.1×/,
    );
    // a small program: 3 × 100 ms is not enough without the margin
    const small = referenceOf(none, [run({ stats: { cpuMs: 100 } })], DEFAULT_QOS, 5000);
    assert.equal(failureOf(run({ configuration: 'obd', stats: { cpuMs: 900 } }), small), undefined);
    // plain runs are never QoS; without CPU times, wall time
    assert.equal(failureOf(run({ configuration: 'none', wallMs: 99_000 }), ref), undefined);
    const wall = referenceOf(none, [run({ wallMs: 1000 })], DEFAULT_QOS, 5000);
    assert.deepEqual(wall.cost, { ms: 1000, cpu: false });
    assert.equal(failureOf(run({ configuration: 'obd', wallMs: 4500 }), wall)?.kind, 'qos');
    // outputs that disagree among the references are not compared
    assert.equal(
      referenceOf([...none, run({ configuration: 'none', stdout: 'x' })], sc, DEFAULT_QOS, 1).output,
      undefined,
    );
  });

  test('verdicts: inconclusive, destructive, qos, benign, not-exercised', () => {
    const counts = (o: Record<string, [number, number]>) =>
      Object.fromEntries(
        CONFIGURATIONS.map((c) => [c, { all: o[c]?.[0] ?? 0, qos: o[c]?.[1] ?? 0 }]),
      ) as Parameters<typeof verdictOf>[0];
    assert.equal(verdictOf(counts({ sc: [1, 0], obd: [3, 0] }), 9), 'inconclusive');
    assert.equal(verdictOf(counts({ obd: [3, 1], random: [2, 2] }), 9), 'destructive');
    assert.equal(verdictOf(counts({ oldest: [5, 5] }), 9), 'qos');
    assert.equal(verdictOf(counts({}), 9), 'benign');
    assert.equal(verdictOf(counts({}), 0), 'not-exercised');
  });

  test('the Figure 9 table (rates in %, the witness with its reads and rerun) and the Figure 10 table', () => {
    const g: GroupResult = {
      site: '/p/f.mjs:6:21',
      offset: 0,
      size: 4,
      variables: ['sab#2+0'],
      variable: 'sab#2+0',
      location: '/p/f.mjs:6:21+0/4',
      name: 'f.mjs:6:21+0/4',
      verdict: 'destructive',
      rates: { none: 0, sc: 0, oldest: 0, obd: 0.83, random: 0.84, rbd: 0.92 },
      failures: { exception: 259 },
      exercised: 12,
      figure10: figure10Of(
        [run({ configuration: 'none', wallMs: 100 }), run({ configuration: 'none', wallMs: 300 })],
        [
          run({
            wallMs: 400,
            stats: { buffers: 3, writes: 10, maxWrites: 6, maxLength: 4, removeOldest: 1 },
          }),
          run({
            wallMs: 500,
            stats: { buffers: 5, writes: 20, maxWrites: 9, maxLength: 3, removeOldest: 0 },
          }),
        ],
      ),
      witness: {
        configuration: 'obd',
        seed: 3,
        kind: 'exception',
        message: 'TypeError: x',
        command: 'goldilocks run …',
        reads: [
          {
            thread: 'T3',
            site: '/p/f.mjs:21:11',
            value: '0',
            newest: '7',
            writer: null,
            choices: 2,
            stale: true,
          },
          {
            thread: 'T3',
            site: '/p/f.mjs:21:28',
            value: '7',
            newest: '7',
            writer: { thread: 'T2', site: '/p/f.mjs:16:5' },
            choices: 2,
            stale: false,
          },
        ],
      },
    };
    assert.deepEqual(g.figure10, {
      slowdown: 2.25,
      instances: 4,
      writes: 15,
      maxLengthUncompressed: 10, // the most writes (9) and the initial entry
      maxLength: 4,
      removeOldest: 1,
      droppedVisible: 0,
    });
    const lines = figure9('p.mjs', [g], 100).split('\n');
    assert.match(lines[0], /^JUMBLE .*p\.mjs, 100 runs per configuration/);
    assert.deepEqual(lines[1].split(/ +/), ['location', ...CONFIGURATIONS, 'exercised', 'verdict']);
    assert.deepEqual(lines[2].split(/ +/), [
      'f.mjs:6:21+0/4',
      '0',
      '0',
      '0',
      '83',
      '84',
      '92',
      '12',
      'destructive',
    ]);
    assert.equal(lines[3], 'witness for f.mjs:6:21+0/4: obd seed 3, exception: TypeError: x');
    assert.equal(lines[4], '  jumbled reads (1 of 2 logged returned an older or torn value):');
    assert.equal(lines[5], '    T3 at /p/f.mjs:21:11 read 0 (newest 7): the initial value; 2 values visible');
    assert.equal(lines[6], '  rerun: goldilocks run …');
    const f10 = figure10([g]).split('\n');
    assert.match(f10[0], /^Figure 10/);
    assert.deepEqual(f10[2].split(/ +/), ['f.mjs:6:21+0/4', '2.25×', '4', '15', '10', '4', '1', '0']);
  });
});

describe('goldilocks jumble: campaigns', () => {
  test('Figure 8: destructive, the controls at 0, a witness with its jumbled reads', LIMIT, async () => {
    const cache = tempPath('cache');
    const before = process.env.GOLDILOCKS_CACHE;
    process.env.GOLDILOCKS_CACHE = cache; // the campaign's environment (spawned now)
    const running = campaign(join(PROGRAMS, 'jumble-figure8.mjs'));
    if (before === undefined) delete process.env.GOLDILOCKS_CACHE;
    else process.env.GOLDILOCKS_CACHE = before;
    const { r, out } = await running;
    assert.equal(r.code, 1, r.stderr);
    assert.equal(out.schema, 'goldilocks-jumble/1');
    assert.equal(out.groups.length, 1);
    const [g] = out.groups;
    assert.equal(g.site, `${join(PROGRAMS, 'jumble-figure8.mjs')}:6:21`);
    assert.equal(g.offset, 0);
    assert.equal(g.size, 4);
    assert.equal(g.verdict, 'destructive');
    assert.deepEqual(g.rates, { none: 0, sc: 0, oldest: 0, obd: 1, random: 1, rbd: 1 });
    assert.ok(g.exercised > 0);
    assert.equal(g.figure10.instances, 1);
    assert.equal(g.figure10.maxLength, 2); // the initial 0 and the write of 7
    const w = g.witness!;
    assert.equal(w.configuration, 'obd');
    assert.equal(w.kind, 'exception');
    assert.match(w.message, /Cannot read properties of null/);
    assert.match(
      w.command,
      /^goldilocks run --jumble obd --jumble-seed 0 --jumble-locations <\(echo \S+:6:21\+0\/4\) /,
    );
    // Oldest-But-Different: the check reads the initial 0, then 7 (its writer named), then the use reads 0
    assert.deepEqual(
      w.reads.map((x) => [x.value, x.newest, x.stale, x.writer?.site.replace(/.*:(\d+):\d+$/, '$1') ?? null]),
      [
        ['0', '7', true, null],
        ['7', '7', false, '16'],
        ['0', '7', true, null],
      ],
    );
    // the rerun command, typed in a shell, fails the same way
    const rerun = spawnSync(
      'bash',
      ['-c', w.command.replace(/^goldilocks /, `'${process.execPath}' '${CLI}' `)],
      {
        encoding: 'utf8',
      },
    );
    assert.notEqual(rerun.status, 0, rerun.stderr);
    assert.match(rerun.stderr, /Cannot read properties of null/);
    assert.match(r.stdout, /jumble-figure8\.mjs:6:21\+0\/4 +0 +0 +0 +100 +100 +100 +\d+ +destructive/);
    assert.match(r.stdout, /read 0 \(newest 7\): the initial value/);
    assert.match(r.stdout, /^Figure 10/m);
    // the runs share the transform cache: the program and its helper were rewritten into it
    assert.ok(readdirSync(cache).length >= 2);
  });

  test('--oracle, and a group jumbled in every buffer of its allocation site (--races)', LIMIT, async () => {
    const program = join(PROGRAMS, 'jumble', 'instances.mjs');
    // a report naming offset 0 of the buffers made at line 6 (three of them): one group
    const races = tempFile(
      'races.json',
      JSON.stringify({
        racyVariables: ['sab#2+0'],
        races: [
          {
            variable: 'sab#2+0',
            memory: { byteOffset: 0, size: 4 },
            allocation: { location: `${program}:6:31` },
          },
        ],
      }),
    );
    // the oracle reads the run's stdout (stdin and file) and exit code, and fails the rbd runs only
    const oracle =
      'grep -q "^sum 6$" && test "$(cat "$GOLDILOCKS_ORACLE_STDOUT")" = "sum 6" && test "$GOLDILOCKS_ORACLE_EXIT" = 0 && ' +
      'case "$GOLDILOCKS_ORACLE_CONFIGURATION" in rbd) echo "rbd judged wrong at seed $GOLDILOCKS_ORACLE_SEED"; exit 1;; esac';
    const { r, out } = await campaign(program, '--seed', '5', '--races', races, '--oracle', oracle);
    assert.equal(r.code, 1, r.stderr);
    const [g] = out.groups;
    assert.equal(g.location, `${program}:6:31+0/4`);
    assert.deepEqual(g.rates, { none: 0, sc: 0, oldest: 0, obd: 0, random: 0, rbd: 1 });
    assert.deepEqual(g.failures, { oracle: 1 });
    assert.equal(g.exercised, 0); // one thread: never a choice
    assert.equal(g.figure10.instances, 3); // every buffer made at the site
    assert.equal(g.figure10.writes, 3);
    assert.equal(g.witness?.kind, 'oracle');
    assert.equal(g.witness?.message, 'rbd judged wrong at seed 5');
  });

  test(
    'QoS: a race whose only effect is time (Oldest: 16 rounds of work) is qos, not destructive',
    LIMIT,
    async () => {
      const { r, out } = await campaign(join(PROGRAMS, 'jumble', 'qos.mjs'));
      assert.equal(r.code, 0, r.stderr); // only destructive groups fail the campaign
      const [g] = out.groups;
      assert.equal(g.verdict, 'qos', JSON.stringify(g));
      assert.deepEqual(g.rates, { none: 0, sc: 0, oldest: 1, obd: 0, random: 0, rbd: 0 });
      assert.deepEqual(g.failures, { qos: 1 });
      assert.equal(g.witness?.configuration, 'oldest');
      assert.equal(g.witness?.kind, 'qos');
      assert.match(g.witness?.message ?? '', /^CPU time \d+ ms, [\d.]+× the sc runs' median \d+ ms$/);
      assert.equal(g.witness?.reads.filter((x) => x.stale).length, 16);
    },
  );

  test(
    'a jumbled run of a campaign: one process, what goldilocks run gives with the same flags',
    LIMIT,
    async () => {
      const figure8 = join(PROGRAMS, 'jumble-figure8.mjs');
      const locations = tempFile('figure8.locations', `${figure8}:6:21+0/4\n`);
      // a program ended by a signal: goldilocks run exits with 128 + its number
      const signal = tempFile(
        'signal.mjs',
        "console.log('up');\nprocess.kill(process.pid, 'SIGTERM');\nsetTimeout(() => {}, 9e3);\n",
      );
      const cases = [
        [figure8, 'obd', 1],
        [figure8, 'sc', 0],
        [signal, 'sc', 143],
      ] as const;
      for (const [k, [program, h, code]] of cases.entries()) {
        const flags = jumbledFlags(h, 0, locations);
        const [direct, cli] = await Promise.all([
          jumbledRun([process.execPath, program], [program], flags, tempPath(`run${k}`), 60_000, runEnv()),
          cliAsync(runWords(flags, [program])),
        ]);
        assert.equal(direct.code, code, direct.stderr);
        assert.equal(direct.signal, null);
        // the same but for what the interleaving of the threads varies: epochs, events counted, times
        const same = (stderr: string) =>
          stderr
            .replace(/epoch \d+@/g, 'epoch N@')
            .replace(/ in \d+ events \(([^;]*);[^)]*\)/g, ' in N events ($1; time)');
        assert.deepEqual(
          [direct.code, direct.stdout, same(direct.stderr)],
          [cli.code, cli.stdout, same(cli.stderr)],
        );
      }
    },
  );

  test('a race-free program: nothing to jumble', LIMIT, async () => {
    const r = await cliAsync(['jumble', '--runs', '1', join(PROGRAMS, 'float64-mutex.mjs')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /no racy location: nothing to jumble/);
  });
});
