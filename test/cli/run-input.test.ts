/**
 * `goldilocks run` on programs that do not parse (issue 25 §3): a syntax error of the program is reported exactly as
 * plain node reports it (file:line, the source line and its caret, no frame of goldilocks) with node's exit code 1,
 * in TypeScript too (as node reports a syntax error: the user's file, line and column, not amaro's code frame);
 * a module the rewriter cannot parse but the engine accepts runs uninstrumented, with a warning naming it, and is
 * listed as unchecked in the run's summary and JSON report (`unchecked`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { parseStripError } from '../../src/node/syntax-error.js';
import type { JsonReport } from '../../src/report/json.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'cli');
/** Files neither acorn nor biome can parse (biome.json leaves them out). */
const UNPARSABLE = join(FIXTURES, 'unparsable');
const LIMIT = { timeout: 60_000 };

/** Plain `node file`: its exit code and stderr. */
function node(file: string) {
  const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

async function run(file: string) {
  const report = tempPath('report.json');
  const r = await cliAsync(['run', '--report', report, file]);
  return { ...r, report: JSON.parse(readFileSync(report, 'utf8')) as JsonReport };
}

describe('run: a syntax error in the program', () => {
  for (const name of ['syntax-error.cjs', 'syntax-error.mjs']) {
    test(`${name}: node's report, word for word, and node's exit code 1`, LIMIT, async () => {
      const file = join(UNPARSABLE, name);
      const plain = node(file);
      assert.equal(plain.code, 1);
      const r = await run(file);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, plain.stderr);
      assert.match(r.stderr, new RegExp(`${name.replace('.', '\\.')}:3\\nlet x = \\(;\\n {9}\\^\\n`));
      assert.equal(r.report.unchecked, undefined); // not a module left unchecked: it never ran
    });
  }
});

describe('run: a TypeScript syntax error, as node reports a syntax error', () => {
  /** Node's report of a syntax error: file:line, the source line, the caret under the column, the error. */
  function assertNodeLike(stderr: string, file: string, line: number, column: number, message: string) {
    const text = readFileSync(file, 'utf8').split('\n')[line - 1];
    assert.ok(
      stderr.startsWith(`${file}:${line}\n${text}\n${' '.repeat(column - 1)}^\n`),
      `file, line and caret first:\n${stderr}`,
    );
    assert.match(
      stderr,
      new RegExp(`\\nSyntaxError: ${message}\\n {4}at .*${file}:${line}:${column}\\)?\\n`),
    );
    // no tool's words (the checkout's own path left out: it may be named goldilocks)
    const words = stderr.replaceAll(ROOT, '<root>');
    assert.doesNotMatch(words, /goldilocks|dist\/|amaro|,-\[|`----|TypeScript type stripping/);
  }

  test('a .ts entry: its file, line and column, exit code 1', LIMIT, async () => {
    const file = join(UNPARSABLE, 'syntax-error.ts');
    const r = await run(file);
    assert.equal(r.code, 1);
    assertNodeLike(r.stderr, file, 3, 18, 'Expression expected');
    assert.equal(r.report.unchecked, undefined);
  });

  test(
    'an imported .mts whose enum strip-only mode rejects: its file and line, not a link error',
    LIMIT,
    async () => {
      const r = await run(join(UNPARSABLE, 'import-enum.mjs'));
      assert.equal(r.code, 1);
      assertNodeLike(
        r.stderr,
        join(UNPARSABLE, 'enum.mts'),
        2,
        1,
        'TypeScript enum is not supported in strip-only mode',
      );
    },
  );

  test("amaro's code frames read: the caret's line and column (tabs shown as 4 columns), a span of lines", () => {
    const source = 'const a = 1;\n\tconst b: = 2;\n';
    const report =
      '  x Unexpected token `=`. Expected an identifier\n   ,-[2:1]\n 1 | const a = 1;\n 2 |     const b: = 2;\n' +
      '   :              ^\n   `----\n\n\nCaused by:\n    failed to parse';
    assert.deepEqual(parseStripError(report, source), {
      message: 'Unexpected token `=`. Expected an identifier',
      line: 2,
      column: 11,
    });
    const span =
      '  x TypeScript enum is not supported in strip-only mode\n   ,-[2:1]\n 1 | // x\n 2 | ,-> enum E {\n';
    assert.deepEqual(parseStripError(span, '// x\n  enum E {\n}\n'), {
      message: 'TypeScript enum is not supported in strip-only mode',
      line: 2,
      column: 3,
    });
  });
});

describe('run: TypeScript in a package of no type', () => {
  test('with export: an ES module, as Node detects it; without: CommonJS', LIMIT, async () => {
    const esm = await run(join(FIXTURES, 'no-type', 'esm-syntax.ts'));
    assert.equal(esm.code, 0, esm.stderr);
    assert.equal(esm.stdout, 'a = 1\n'); // it runs (the CommonJS loader handed it back to the ES module loader)
    const cjs = await run(join(FIXTURES, 'no-type', 'commonjs.ts'));
    assert.equal(cjs.code, 0, cjs.stderr);
    assert.equal(cjs.stdout, 'b = 2, function\n');
  });

  test(
    'under tsx (node --import tsx), as tsx compiles it: CommonJS, a folder import resolved by its main',
    LIMIT,
    async () => {
      const file = join(FIXTURES, 'no-type', 'tsx-import.ts');
      const r = await cliAsync(['run', '--', process.execPath, '--import', 'tsx', file]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'n = 42\n');
    },
  );

  test('an .mts entry importing an .mts: an ES module, with top-level await', LIMIT, async () => {
    const r = await run(join(FIXTURES, 'mts', 'entry.mts'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'doubled = 42, undefined\n');
  });
});

describe('run: a module the rewriter cannot parse', () => {
  test(
    'CommonJS with new.target at its top level: warned, run uninstrumented, listed unchecked',
    LIMIT,
    async () => {
      const lib = join(FIXTURES, 'new-target.cjs');
      const r = await run(join(FIXTURES, 'unparsable-module.cjs'));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'view[0] = 1\n'); // as under node
      assert.match(
        r.stderr,
        new RegExp(`^goldilocks: warning: ${lib} is not instrumented, its accesses are unchecked`, 'm'),
      );
      assert.match(r.stderr, new RegExp(`^goldilocks: unchecked \\(not instrumented, .*\\): ${lib}$`, 'm'));
      assert.deepEqual(r.report.unchecked, [lib]); // the entry itself was instrumented
    },
  );

  const esm = join(UNPARSABLE, 'import-assertion.mjs');
  const accepted = spawnSync(process.execPath, ['--check', esm]).status === 0;
  test('an ES module with an import assertion: warned, run uninstrumented, listed unchecked', {
    ...LIMIT,
    skip: accepted ? false : `this Node.js (${process.version}) rejects import assertions`,
  }, async () => {
    const r = await run(esm);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'a = 1\n');
    const url = pathToFileURL(esm).href;
    assert.match(r.stderr, new RegExp(`^goldilocks: warning: ${url} is not instrumented`, 'm'));
    assert.deepEqual(r.report.unchecked, [url]);
  });
});
