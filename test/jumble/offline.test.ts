/**
 * `goldilocks check --adversarial` end to end (src/jumble/offline/, issue 22 §2): the class of each read of a trace
 * with values, the per-location counts, the examples with their alternatives, the JSON `adversarial` section
 * (docs/REPORT.md), a trace without values, and the exit codes. Runs the built CLI (dist/).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonAdversarial } from '../../src/jumble/offline/report.js';
import { cli, ROOT, tempFile } from '../helpers/helpers.js';

/**
 * T1 reads x racily after T0 wrote 1 then 2: a stale read of 1, a read of the newest 2 with 0 and 1 also visible, a
 * read of 9 that no write wrote. y: both threads write 5 (a race), T0 reads 5 — no choice. z: written and read under
 * lock m — no race, no choice.
 */
const TRACE = `T0|fork(T1)|
T0|w(x)=1|A.java:1
T0|w(x)=2|A.java:2
T1|r(x)=1|B.java:1
T1|r(x)=2|B.java:2
T1|r(x)=9|B.java:3
T0|w(y)=5|A.java:3
T1|w(y)=5|B.java:4
T0|r(y)=5|A.java:4
T0|acq(m)|
T0|w(z)=3|A.java:5
T0|rel(m)|
T1|acq(m)|
T1|r(z)=3|B.java:5
T1|rel(m)|
`;

function adversarial(text: string, ...args: string[]): { json: JsonAdversarial; races: string[] } {
  const r = cli(['check', '--json', '--adversarial', ...args, tempFile('adv.trace', text)]);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as { adversarial: JsonAdversarial; racyVariables: string[] };
  return { json: report.adversarial, races: report.racyVariables };
}

describe('goldilocks check --adversarial', () => {
  test('the class of each read: stale-observed, sc-violation-possible, unexplained, sc', () => {
    const { json } = adversarial(TRACE);
    assert.deepEqual(json.summary.classes, {
      sc: 2,
      'sc-violation-possible': 1,
      'stale-observed': 1,
      'future-read': 0,
      unexplained: 1,
      'no-value': 0,
    });
    assert.equal(json.summary.reads, 5);
    assert.equal(json.summary.choiceReads, 3);
    assert.equal(json.summary.writes, 5);
    const [stale] = json.examples['stale-observed'] ?? [];
    assert.equal(stale.index, 3);
    assert.equal(stale.line, 4);
    assert.equal(stale.thread, 'T1');
    assert.equal(stale.value, '1');
    assert.equal(stale.location, 'B.java:1');
    assert.deepEqual(stale.readFrom, { value: '1', thread: 'T0', index: 1, line: 2, location: 'A.java:1' });
    assert.equal(stale.newest.value, '2');
    assert.deepEqual(
      stale.alternatives.map((a) => [a.value, a.thread, a.index, a.line]),
      [
        ['initial', null, -1, 0],
        ['1', 'T0', 1, 2],
        ['2', 'T0', 2, 3],
      ],
    );
    const [scv] = json.examples['sc-violation-possible'] ?? [];
    assert.equal(scv.index, 4);
    assert.equal(scv.readFrom?.index, 2);
    assert.equal(scv.alternatives.length, 3);
    const [unexplained] = json.examples.unexplained ?? [];
    assert.equal(unexplained.index, 5);
    assert.equal(unexplained.value, '9');
    assert.equal(unexplained.readFrom, undefined);
  });

  test('per location: reads, choices, max |D|, stale, unexplained, writes, buffer lengths, drops', () => {
    const { json } = adversarial(TRACE);
    assert.deepEqual(json.locations, [
      {
        variable: 'x',
        reads: 3,
        choiceReads: 3,
        maxDistinct: 3,
        staleObserved: 1,
        scViolationPossible: 1,
        futureRead: 0,
        unexplained: 1,
        noValue: 0,
        writes: 2,
        maxBuffer: 3,
        maxBufferUncompressed: 2,
        removeOldest: 0,
        droppedVisible: 0,
        tearPossible: 0,
      },
    ]);
    assert.equal(json.locationsOmitted, 0);
    assert.deepEqual(json.candidates, ['x']);
  });

  test('a same-value race has no choice: racy, but listed apart from the candidates', () => {
    const { json, races } = adversarial(TRACE);
    assert.ok(races.includes('y'));
    assert.deepEqual(json.noChoiceRaces, ['y']);
    assert.ok(!json.candidates.includes('y') && !json.candidates.includes('z'));
  });

  test('the JSON section: bound, initial values, summary, examples and what was omitted', () => {
    const { json } = adversarial(TRACE, '--max-reports', '0');
    assert.equal(json.bound, 32);
    assert.ok(json.initialValues.includes('0') && json.initialValues.includes('null'));
    assert.deepEqual(Object.keys(json).sort(), [
      'bound',
      'candidates',
      'examples',
      'examplesOmitted',
      'initialValues',
      'locations',
      'locationsOmitted',
      'noChoiceRaces',
      'summary',
    ]);
    assert.deepEqual(json.examples, {
      'sc-violation-possible': [],
      'stale-observed': [],
      'future-read': [],
      unexplained: [],
    });
    assert.deepEqual(json.examplesOmitted, {
      'sc-violation-possible': 1,
      'stale-observed': 1,
      'future-read': 0,
      unexplained: 1,
    });
    assert.equal(json.locationsOmitted, 1);
  });

  test('initial-value texts match the initial entry; alloc resets a buffer to it', () => {
    const text = 'T0|fork(T1)|\nT1|r(o.f)=null|\nT0|w(o.f)=7|\nT0|alloc(o)|\nT1|r(o.f)=0|\nT1|r(o.f)=7|\n';
    const { json } = adversarial(text);
    assert.equal(json.summary.classes.sc, 2);
    assert.equal(json.summary.classes.unexplained, 1, 'after alloc(o), the old 7 is gone');
  });

  test('a read of a later write not ordered after it is a future read; one ordered after it stays unexplained', () => {
    const text = `T0|fork(T1)|
T1|r(y)=8|B.java:2
T1|acq(m)|
T1|rel(m)|
T1|r(x)=7|B.java:1
T0|acq(m)|
T0|rel(m)|
T0|w(x)=7|A.java:1
T0|w(y)=8|A.java:2
`;
    const { json } = adversarial(text);
    assert.equal(json.summary.classes['future-read'], 1);
    assert.equal(json.summary.classes.unexplained, 1);
    const [f] = json.examples['future-read'] ?? [];
    assert.equal(f.variable, 'x');
    assert.deepEqual(f.readFrom, { value: '7', thread: 'T0', index: 7, line: 8, location: 'A.java:1' });
    assert.equal(
      json.examples.unexplained?.[0].variable,
      'y',
      'w(y)=8 happens after the read (T1 rel → T0 acq)',
    );
  });

  test('8-byte fields (RoadRunner _J, _D) with a choice may tear', () => {
    const text = 'T0|fork(T1)|\nT0|w(@1.C.t_J)=5|\nT1|r(@1.C.t_J)=5|\nT0|w(@1.C.n_I)=5|\nT1|r(@1.C.n_I)=5|\n';
    const { json } = adversarial(text);
    const tear = Object.fromEntries(json.locations.map((l) => [l.variable, l.tearPossible]));
    assert.deepEqual(tear, { '@1.C.t_J': 1, '@1.C.n_I': 0 });
  });

  test('the text report', () => {
    const r = cli(['check', '--adversarial', tempFile('adv.trace', TRACE)]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /ADVERSARIAL MEMORY/);
    assert.match(
      r.stdout,
      /5 reads: 2 sc, 1 sc-violation-possible, 1 stale-observed, 0 future-read, 1 unexplained, 0 no-value/,
    );
    assert.match(
      r.stdout,
      /event 3 \(line 4\): T1 read x = 1 at B\.java:1\n {6}written by 1 \(T0, event 1, line 2/,
    );
    assert.match(r.stdout, /racy but never a choice \(same-value or read-then-write races\): y/);
  });

  test('a trace without values: every read is no-value, entries still counted', () => {
    const text = 'T0|fork(T1)|\nT0|w(x)|\nT0|w(x)|\nT1|r(x)|\nT1|r(y)|\n';
    const { json } = adversarial(text);
    assert.equal(json.summary.classes['no-value'], 2);
    assert.equal(json.summary.reads, 2);
    assert.equal(json.summary.choiceReads, 1, 'unknown values are distinct: x had 3 visible entries');
    assert.deepEqual(json.examples['stale-observed'], []);
  });

  test('exit codes: as without --adversarial; stdin refused (2)', () => {
    const file = tempFile('adv.trace', TRACE);
    assert.equal(cli(['check', '--adversarial', '--fail-on-race', file]).status, 1);
    const stdin = cli(['check', '--adversarial', '-'], TRACE);
    assert.equal(stdin.status, 2);
    assert.match(stdin.stderr, /^goldilocks: --adversarial: trace '-' is standard input \(expected a file/);
    assert.equal(cli(['check', '-'], TRACE).status, 0);
  });

  const real = join(ROOT, '..', 'shared', 'traces', 'real', 'account.std');
  test('a real trace without values (../shared/traces/real/account.std)', {
    skip: existsSync(real) ? false : `${real} is absent`,
  }, () => {
    const r = cli(['check', '--json', '--adversarial', real]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { adversarial: JsonAdversarial };
    const s = j.adversarial.summary;
    assert.equal(s.classes['no-value'], s.reads);
    assert.ok(s.reads > 0);
  });
});
