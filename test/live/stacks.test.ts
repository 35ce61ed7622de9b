/**
 * Stacks in the program's source coordinates (issue 25 §1): every rewritten file carries its inline source map and
 * the runtime enables Node's source maps, so the racing access's stack names the program's own lines and columns —
 * its first frame the same line:column as `current.location`, the frames below it the calls' — for an ES module, a
 * CommonJS file and a TypeScript module alike.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'report');

/** The `file:line:column` of the first occurrence of `text` in `file` (1-based line and column). */
function whereIs(file: string, text: string): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  return `${file}:${line + 1}:${lines[line].indexOf(text) + 1}`;
}

/** The `file:line:column` of each frame of a stack text (`at f (file:1:2)` or `at file:1:2`). */
const frames = (stack: string): string[] =>
  stack.split('\n').map((l) => l.trim().replace(/^at (?:.* \()?(.*?)\)?$/, '$1'));

describe('stacks in source coordinates', () => {
  for (const name of ['stack.mjs', 'stack.cjs', 'stack.ts'])
    test(`${name}: the first frame is the racing access's location, the next the calls'`, {
      timeout: 60_000,
    }, async () => {
      const program = join(FIXTURES, name);
      const report = tempPath(`${name}.json`);
      const r = await cliAsync(['run', '--on-race=report', '--report', report, program]);
      assert.equal(r.code, 0, r.stderr);
      const [race] = (JSON.parse(readFileSync(report, 'utf8')) as JsonReport).races;
      const stack = frames(race.current.stack ?? '');
      assert.equal(race.current.location, whereIs(program, 'a[i] = 7'));
      assert.equal(stack[0], race.current.location);
      assert.equal(stack[1], whereIs(program, 'touch(a, 2)'));
      assert.match(r.stderr, new RegExp(`\n {4}at touch \\(${race.current.location}\\)\n`));
    });
});
