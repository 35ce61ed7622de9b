/**
 * `goldilocks run --record FILE` (docs/RUNTIME.md "Recording"): the recorded trace, checked offline by
 * `goldilocks check`, gives the live run's races. Every program of test/programs is also replayed this way by
 * test/live/programs.test.ts; here: throw mode (Figure 1, where the racing read is caught and never happens), the same
 * race text in run and check, records spread over several chunks, a worker terminated mid-run, the precise
 * detectors agreeing on a recording, an unwritable trace file, and a command with two node processes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CHUNK_RECORDS } from '../../src/live/record.js';
import type { JsonReport } from '../../src/report/json.js';
import { type CliRun, cli, cliAsync, locationPairs, ROOT, tempPath } from '../helpers/helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'runtime');
const LIMIT = { timeout: 60_000 };

interface Recorded extends CliRun {
  live: JsonReport;
  trace: string;
}

/** `goldilocks run --report R --record T [options] <args>`; resolves with the live report and the trace's name. */
async function record(options: string[], args: string[]): Promise<Recorded> {
  const report = tempPath('live.json');
  const trace = tempPath('run.trace');
  const r = await cliAsync(['run', '--report', report, '--record', trace, ...options, ...args]);
  assert.ok(existsSync(report), `no report: ${r.stderr}`);
  return { ...r, live: JSON.parse(readFileSync(report, 'utf8')) as JsonReport, trace };
}

/** `goldilocks check --json` of a trace, with every detector in `detectors`. */
function check(trace: string, detectors = 'goldilocks'): JsonReport[] {
  const r = cli(['check', '--json', '--max-reports', '1000000', '-d', detectors, trace]);
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as JsonReport | JsonReport[];
  return Array.isArray(json) ? json : [json];
}

const line = (location: string) => Number(location.split(':').at(-2));

/**
 * The race blocks and the SUMMARY line of a text report (src/report/text.ts), without what only one front end
 * knows: the event index (offline), the element type and size, the stack and the memory line (live), the lockset's members and the
 * detector's reasoning (named differently in a trace), how often a pair raced, and the SUMMARY's numbers and
 * its account of the input (a trace's locks and variables, a run's buffers and processes).
 */
function lineShapes(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => /^(=+$|WARNING: |SUMMARY: | {2}[a-z])/.test(l) && !l.startsWith('  memory: '))
    .map((l) =>
      l
        .replace(/ \(event \d+\)$/, '')
        .replace(/^(WARNING: .*) \(\w+, \d+ bytes\)$/, '$1')
        .replace(/^( {2}lockset: )\{.*\}$/, '$1{…}')
        .replace(/^( {2}decided by: ).*$/, '$1…')
        .replace(/^(SUMMARY: .*) \(.*\)$/, '$1 (…)')
        .replace(/^SUMMARY: .*/, (summary) => summary.replace(/\d[\d,]*/g, 'N')),
    );
}

describe('goldilocks run --record', () => {
  test(
    'Figure 1 in throw mode: the caught racing read is in the trace, and check reports the same race',
    LIMIT,
    async () => {
      const r = await record([], ['examples/ftp-connection.mjs']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Connection closed! \(data race on sab#\d+\+\d+/);
      assert.match(r.stderr, /goldilocks: recorded \d+ events of 1 process to /);
      assert.equal(r.live.summary.racePairs, 1);
      const [offline] = check(r.trace);
      assert.deepEqual(locationPairs(offline.races), locationPairs(r.live.races));
      assert.deepEqual(offline.racyVariables, r.live.racyVariables); // one Int32 element: its variable is its first byte
      assert.equal(offline.races[0].current.access, 'read');
      assert.equal(line(offline.races[0].current.location), 51);
    },
  );

  test(
    'a race reads the same in run (stderr) and in check of its recording (stdout), line by line',
    LIMIT,
    async () => {
      const r = await record(['--on-race=report'], ['examples/ftp-connection.mjs']);
      assert.equal(r.code, 0, r.stderr);
      const offline = cli(['check', r.trace]);
      assert.equal(offline.status, 0, offline.stderr);
      const live = lineShapes(r.stderr);
      assert.deepEqual(live, lineShapes(offline.stdout));
      assert.match(r.stderr, /^ {4}at .*ftp-connection\.mjs:51:/m); // the racing access's stack, live only
      assert.match(offline.stdout, /^ {2}read by thread T1 at .*ftp-connection\.mjs:51:15 \(event \d+\)$/m);
      assert.deepEqual(live, [
        '==================',
        `WARNING: goldilocks: data race on ${r.live.racyVariables[0]}`,
        `  read by thread T1 at ${r.live.races[0].current.location}`,
        `  previous write by thread T0 at ${r.live.races[0].previous.location}`,
        '  lockset: {…}',
        '  decided by: …',
        '==================',
        'SUMMARY: goldilocks: N racy variables, N racy events, N racy locations in N events (…)',
      ]);
    },
  );

  test('more accesses than a chunk holds: every one is in the trace, in order', LIMIT, async () => {
    const r = await record(['--on-race=report'], [join(FIXTURES, 'record-many.mjs')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /sum 199990000, last seen/);
    const text = readFileSync(r.trace, 'utf8');
    const writes = text
      .split('\n')
      .filter((l) => /^T\d+\|w\(sab#\d+\+\d+\)(=0x[0-9a-f]+)?\|.*record-many\.mjs:18:/.test(l));
    assert.ok(20_000 > 2 * CHUNK_RECORDS);
    assert.equal(writes.length, 20_000);
    const offsets = writes.map((l) => Number(/\+(\d+)\)/.exec(l)![1]));
    assert.deepEqual(
      offsets,
      offsets.map((_, i) => 4 * i),
    );
    const [offline] = check(r.trace);
    assert.deepEqual(locationPairs(offline.races), locationPairs(r.live.races));
    assert.deepEqual(
      offline.races.map((x) => [line(x.current.location), line(x.previous.location)].sort()),
      [[13, 20]],
    );
  });

  test('a worker terminated mid-run: its pending accesses are kept', LIMIT, async () => {
    const r = await record(['--on-race=report'], ['test/programs/terminate-no-await.mjs']);
    assert.equal(r.code, 0, r.stderr);
    const text = readFileSync(r.trace, 'utf8');
    assert.match(text, /\nT\d+\|w\(sab#\d+\+0\)(=0x[0-9a-f]+)?\|[^\n]*terminate-no-await\.mjs:18:5\n/);
    const [offline] = check(r.trace);
    assert.equal(offline.summary.racePairs, 1);
    assert.deepEqual(locationPairs(offline.races), locationPairs(r.live.races));
  });

  test('the precise detectors agree on a recording', LIMIT, async () => {
    const r = await record(['--on-race=report'], ['test/programs/seqlock-plain-reads.mjs']);
    assert.equal(r.code, 0, r.stderr);
    const reports = check(r.trace, 'goldilocks,eager,djit,fasttrack');
    assert.ok(reports[0].summary.racyVariables > 0);
    for (const j of reports.slice(1)) {
      assert.deepEqual(j.racyVariables, reports[0].racyVariables, j.detector);
      assert.deepEqual(j.firstRaces, reports[0].firstRaces, j.detector);
    }
  });

  test('an unwritable --record file is an input error before the program runs', () => {
    const r = cli(['run', '--record', join(ROOT, 'no-such-dir', 'x.trace'), 'examples/ownership.mjs']);
    assert.equal(r.status, 2, r.stderr);
    assert.match(
      r.stderr,
      /^goldilocks: --record: cannot write '.*x\.trace': no directory '.*no-such-dir' \(expected a writable file\)\n$/,
    );
    assert.equal(r.stdout, '');
  });

  test(
    'a command with two node processes: one trace, names prefixed by process as in the report',
    LIMIT,
    async () => {
      const prevented = join(FIXTURES, 'prevented.mjs');
      const r = await record(
        ['--on-race=report'],
        ['--', 'sh', '-c', `node ${prevented} && node ${prevented}`],
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /recorded \d+ events of 2 processes/);
      assert.equal(r.live.summary.racePairs, 2);
      assert.equal(r.live.summary.processes, 2);
      assert.match(
        r.stderr,
        /^SUMMARY: goldilocks: 2 racy variables, .* \(\d+ threads, \d+ shared buffers, 2 processes; /m,
      );
      const [offline] = check(r.trace);
      assert.deepEqual(offline.racyVariables, r.live.racyVariables);
      assert.deepEqual(locationPairs(offline.races), locationPairs(r.live.races));
      assert.match(readFileSync(r.trace, 'utf8'), /\n0\/T0\|/);
      assert.match(readFileSync(r.trace, 'utf8'), /\n1\/T0\|/);
    },
  );
});
