/**
 * Where the runtime's `Atomics` name things (issue 23 §4): an error the built-in operation throws reaches the program
 * as plain node shows it (the built-in's frame, then the program's line, not the runtime's interceptor); the atomic
 * operations of goldilocks/sync name their library line (found once per call site, `libraryAtomics`); a commit names
 * the program's `stm.atomic(...)` call (a sited method) — ./stm.test.ts checks the commit's location.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { JsonReport } from '../../src/report/json.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'atomics');
const LIMIT = { timeout: 60_000 };

interface Thrown {
  name: string;
  message: string;
  frames: string[];
}

const parse = (stdout: string): Thrown[] =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Thrown);

/** The file and line of a stack frame text (`at f (file:1:2)` or `at file:1:2`), the column dropped. */
const lineOf = (frame: string): string => {
  const at = frame.replace(/^at (?:.* \()?(.*?)\)?$/, '$1').replace(/:\d+$/, '');
  return at.startsWith('file:') ? fileURLToPath(at.replace(/:\d+$/, '')) + at.match(/:\d+$/)![0] : at;
};

describe('the runtime’s Atomics: errors and sites', () => {
  test(
    'an error of the built-in operation: its message, the built-in’s frame, then the program’s line',
    LIMIT,
    async () => {
      const program = join(FIXTURES, 'builtin-errors.mjs');
      const plain = parse(execFileSync(process.execPath, [program], { encoding: 'utf8' }));
      const r = await cliAsync(['run', program]);
      assert.equal(r.code, 0, r.stderr);
      const live = parse(r.stdout);
      assert.equal(live.length, 5, r.stdout);
      assert.equal(live.length, plain.length);
      for (let i = 0; i < live.length; i++) {
        assert.equal(live[i].name, plain[i].name);
        assert.equal(live[i].message, plain[i].message);
        assert.match(live[i].frames[0], /^at Atomics\.\w+ \(<anonymous>\)$/, JSON.stringify(live[i]));
        assert.equal(live[i].frames[0], plain[i].frames[0]);
        assert.equal(lineOf(live[i].frames[1]), lineOf(plain[i].frames[1]), JSON.stringify(live[i]));
      }
    },
  );

  test('a race with a Mutex’s own atomic write names the library line of that write', LIMIT, async () => {
    const program = join(FIXTURES, 'mutex-word.mjs');
    const report = tempPath('mutex-word.json');
    const r = await cliAsync(['run', '--on-race=report', '--report', report, program]);
    assert.equal(r.code, 0, r.stderr);
    const [race] = (JSON.parse(readFileSync(report, 'utf8')) as JsonReport).races;
    assert.ok(race, r.stderr);
    const atomic = [race.current, race.previous].find((a) => a.atomic);
    const plain = [race.current, race.previous].find((a) => !a.atomic);
    assert.equal(plain?.location, `${program}:17:3`);
    // a frame of the library names its own file and line (dist/sync/mutex.js's; src/sync/mutex.ts's with source maps)
    const [, file, line] = /^(.*\/sync\/mutex\.(?:ts|js)):(\d+):\d+$/.exec(atomic?.location ?? '') ?? [];
    assert.ok(line, `the atomic side at the library's line: ${atomic?.location}`);
    const source = readFileSync(file, 'utf8').split('\n');
    // a compare-exchange of the state word: the lock's or the unlock's, the atomic writes that race
    assert.match(
      source[Number(line) - 1],
      /(?:A\.compareExchange|ByCompareExchange)\((?:this\.ref, )?[\w.]+, STATE, /,
    );
  });
});
