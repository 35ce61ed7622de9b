/**
 * `--sarif FILE` of `goldilocks check` and `goldilocks run` (issue 25 §2, src/report/sarif.ts): every log validates
 * against the official SARIF 2.1.0 schema (OASIS `sarif-2.1.0-rtm.5.json`, draft-04, as shipped by
 * @microsoft/jest-sarif; validated with ajv-draft-04); one result per race pair, the racing access as its location,
 * the previous one as related location 1, the allocation, when the record has it, as related location 2.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv-draft-04';
import type * as Sarif from 'sarif';
import type { JsonReport } from '../../src/report/json.js';
import { sarifLocation, sarifLog } from '../../src/report/sarif.js';
import { cli, cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const SCHEMA = join(
  ROOT,
  'node_modules',
  '@microsoft',
  'jest-sarif',
  'lib',
  'schemas',
  'sarif-2.1.0-rtm.5.json',
);
// the schema's `language` pattern is not a valid Unicode-mode regular expression: compiled without the u flag
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addFormat('uri-reference', (s: string) => URL.canParse(s, 'file:///base/'));
ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')));

/** Reads the log at `file`, asserting that it is valid SARIF 2.1.0. */
function valid(file: string): Sarif.Log {
  const log = JSON.parse(readFileSync(file, 'utf8')) as Sarif.Log;
  assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
  return log;
}

const FTP = join(ROOT, 'examples', 'figure1-ftpserver.trace');

describe('the validator', () => {
  test('rejects what is not SARIF (the test can fail)', () => {
    assert.equal(validate({ version: '2.1.0', runs: [{ results: 'x' }] }), false);
    assert.equal(validate({ version: '2.0.0', runs: [] }), false);
  });
});

describe('check --sarif', () => {
  test('one run per detector, one result per listed race pair, both accesses located', () => {
    const file = tempPath('ftp.sarif');
    const json = tempPath('ftp.json');
    const r = cli(['check', '-d', 'goldilocks,eraser', '--sarif', file, '--report', json, FTP]);
    assert.equal(r.status, 0, r.stderr);
    const log = valid(file);
    const reports = JSON.parse(readFileSync(json, 'utf8')) as JsonReport[];
    assert.equal(log.runs.length, 2);
    for (const [i, run] of log.runs.entries()) {
      assert.equal(run.tool.driver.name, 'goldilocks');
      assert.equal(run.results?.length, reports[i].races.length);
      for (const [k, result] of (run.results ?? []).entries()) {
        const race = reports[i].races[k];
        assert.equal(result.ruleId, race.precise ? 'data-race' : 'potential-data-race');
        assert.equal(result.level, race.precise ? 'error' : 'warning');
        const line = (loc: string) => Number(loc.split(':').at(-1));
        assert.equal(result.locations?.[0].physicalLocation?.region?.startLine, line(race.current.location));
        assert.equal(result.locations?.[0].physicalLocation?.artifactLocation?.uri, 'Connection.java');
        assert.equal(
          result.relatedLocations?.[0].physicalLocation?.region?.startLine,
          line(race.previous.location),
        );
        assert.match(result.message.text ?? '', new RegExp(`on ${race.variable.replace('.', '\\.')}`));
      }
    }
    const first = log.runs[0].results?.[0];
    assert.deepEqual(first?.locations?.[0].logicalLocations, [{ name: 'close', kind: 'function' }]);
  });

  test('no race: a valid log with no results', () => {
    const file = tempPath('none.sarif');
    const r = cli(['check', '--sarif', file, join(ROOT, 'examples', 'example2-ownership.trace')]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(valid(file).runs[0].results, []);
  });
});

describe('run --sarif', () => {
  test('the live races: file paths relative to the working directory, line and column, the stack', {
    timeout: 60_000,
  }, async () => {
    const file = tempPath('live.sarif');
    const program = join(ROOT, 'test', 'fixtures', 'cli', 'two-races.mjs');
    const r = await cliAsync(['run', '--on-race=report', '--sarif', file, program]);
    assert.equal(r.code, 0, r.stderr);
    const log = valid(file);
    const results = log.runs[0].results ?? [];
    assert.equal(results.length, 2);
    for (const result of results) {
      const at = result.locations?.[0].physicalLocation;
      assert.equal(at?.artifactLocation?.uri, 'test/fixtures/cli/two-races.mjs');
      assert.equal(at?.artifactLocation?.uriBaseId, '%SRCROOT%');
      assert.ok([16, 17].includes(at?.region?.startLine ?? 0));
      assert.ok((at?.region?.startColumn ?? 0) > 0);
      assert.ok([8, 9].includes(result.relatedLocations?.[0].physicalLocation?.region?.startLine ?? 0));
      assert.ok((result.stacks?.[0].frames.length ?? 0) >= 1);
    }
  });
});

describe('sarifLog', () => {
  const race = {
    variable: 'sab#1+0',
    current: {
      index: -1,
      thread: 'T1',
      access: 'write',
      transactional: false,
      atomic: false,
      location: '/w/a.mjs:3:5',
    },
    previous: {
      index: -1,
      thread: 'T0',
      access: 'read',
      transactional: false,
      atomic: false,
      location: '/w/b.mjs:7:1',
    },
    detail: 'd',
    precise: true,
    count: 1,
  } as const;
  const report = (extra: object) =>
    ({
      detector: 'goldilocks',
      input: { file: 'p.mjs' },
      summary: {},
      racesOmitted: 0,
      races: [{ ...race, ...extra }],
    }) as unknown as JsonReport;

  test('the allocation, when the record has it, is related location 2', () => {
    const log = sarifLog([report({ allocation: { location: '/w/c.mjs:1:9', thread: 'T0' } })], '1.0.0', '/w');
    assert.ok(validate(log), JSON.stringify(validate.errors));
    const related = log.runs[0].results?.[0].relatedLocations ?? [];
    assert.deepEqual(
      related.map((l) => [
        l.id,
        l.physicalLocation?.artifactLocation?.uri,
        l.physicalLocation?.region?.startLine,
      ]),
      [
        [1, 'b.mjs', 7],
        [2, 'c.mjs', 1],
      ],
    );
    assert.match(related[1].message?.text ?? '', /allocated by thread T0/);
  });

  test('without one, only the previous access', () => {
    const log = sarifLog([report({})], '1.0.0', '/w');
    assert.equal(log.runs[0].results?.[0].relatedLocations?.length, 1);
  });

  test('locations: outside the working directory a file URL; text without a line is the message', () => {
    assert.equal(
      sarifLocation('/elsewhere/x.mjs:1:2', '/w').physicalLocation?.artifactLocation?.uri,
      'file:///elsewhere/x.mjs',
    );
    assert.deepEqual(sarifLocation('file:///w/sub/y.mjs:4:1', '/w').physicalLocation?.artifactLocation, {
      uri: 'sub/y.mjs',
      uriBaseId: '%SRCROOT%',
    });
    assert.deepEqual(sarifLocation('L12', '/w'), { message: { text: 'L12' } });
    assert.deepEqual(sarifLocation('', '/w'), {});
  });
});
