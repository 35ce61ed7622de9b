/**
 * Misuse of every command (issue 25 §3): each unknown option value, missing or unreadable file and complaint of the
 * argument parser is one line on stderr, `goldilocks: <what>: <value or place> (expected <what>)`, nothing on
 * stdout, exit code 2, and nothing is run (src/cli/usage.ts).
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { cli, ROOT, tempFile, tempPath } from '../helpers/helpers.js';

const TRACE = tempFile('one.std', 'T0|w(x)|1\n');
const PROGRAM = join(ROOT, 'examples', 'ownership.mjs');
const DIR = tempPath('dir');
mkdirSync(DIR);
const NOWHERE = join(tempPath('absent'), 'out.json');

/** Runs the CLI and checks the misuse: exit 2, no output, stderr exactly `goldilocks: ` + `line`. */
function misuse(args: string[], line: RegExp, input?: string): void {
  const r = cli(args, input);
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^goldilocks: [^\n]+\n$/, 'one line');
  assert.match(r.stderr.slice('goldilocks: '.length, -1), line);
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('check: misuse is one line and exit 2', () => {
  it('an unknown detector, alone or in a list', () => {
    const expected = '(expected goldilocks, eager, djit, fasttrack, eraser)';
    misuse(
      ['check', '-d', 'foo', TRACE],
      new RegExp(`^--detector: unknown detector 'foo' ${esc(expected)}$`),
    );
    misuse(
      ['check', '-d', 'goldilocks,bar', TRACE],
      /^--detector: unknown detector 'bar' \(expected goldilocks/,
    );
  });
  it('an unknown format', () => {
    misuse(
      ['check', '-f', 'foo', TRACE],
      /^--format: unknown format 'foo' \(expected auto, std, ext, rr, bin\)$/,
    );
  });
  it('an unknown pipeline mode', () => {
    misuse(
      ['check', '--pipeline', 'x', TRACE],
      /^--pipeline: unknown mode 'x' \(expected auto, on, split, off\)$/,
    );
  });
  it('an unknown optimization to disable', () => {
    misuse(
      ['check', '--disable', 'owner,foo', TRACE],
      /^--disable: unknown optimization 'foo' \(expected xact, /,
    );
  });
  it('numbers out of range', () => {
    misuse(
      ['check', '--max-reports', 'x', TRACE],
      /^--max-reports: invalid number 'x' \(expected a non-negative integer\)$/,
    );
    misuse(
      ['check', '--eager-bound', '-1', TRACE],
      /^--eager-bound: invalid number '-1' \(expected a non-negative/,
    );
    misuse(
      ['check', '--block-size', '0', TRACE],
      /^--block-size: invalid number '0' \(expected a positive integer\)$/,
    );
  });
  it('a missing trace, a directory, a missing --skip file', () => {
    misuse(
      ['check', tempPath('missing.std')],
      /^trace: no such file '.*missing\.std' \(expected a trace file, or - for/,
    );
    misuse(['check', DIR], /^trace: '.*dir' is a directory \(expected a trace file/);
    misuse(
      ['check', '--skip', tempPath('skip'), TRACE],
      /^--skip: no such file '.*skip' \(expected a file of /,
    );
  });
  it('an unreadable trace', { skip: process.getuid?.() === 0 ? 'root reads every file' : false }, () => {
    const file = tempFile('secret.std', 'T0|w(x)|1\n');
    chmodSync(file, 0);
    misuse(['check', file], /^trace: no permission to read '.*secret\.std' \(expected a trace file/);
  });
  it('a corrupt or truncated gzip trace', () => {
    const truncated = tempFile('cut.std.gz', gzipSync('T0|w(x)|1\n').subarray(0, 12));
    misuse(['check', truncated], /^trace: corrupt gzip data: .* \(expected a complete gzip file\)$/);
    const garbage = tempFile('bad.std.gz', Buffer.from([0x1f, 0x8b, 0x08, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    misuse(['check', garbage], /^trace: corrupt gzip data: /);
  });
  it('a --report file in no directory, before the check', () => {
    misuse(
      ['check', '--report', NOWHERE, TRACE],
      /^--report: cannot write '.*out\.json': no directory '.*absent' \(expected a writable file\)$/,
    );
    misuse(['check', '--report', DIR, TRACE], /^--report: cannot write '.*dir': it is a directory/);
  });
  it('--adversarial on standard input', () => {
    misuse(
      ['check', '--adversarial', '-'],
      /^--adversarial: trace '-' is standard input \(expected a file/,
      'T0|w(x)|1\n',
    );
  });
  it("the argument parser's complaints: unknown option, missing value, missing or extra argument", () => {
    misuse(
      ['check', '--bogus', TRACE],
      /^check: unknown option '--bogus' \(expected an option of goldilocks check --help\)$/,
    );
    misuse(['check', '--jsn', TRACE], /^check: unknown option '--jsn' \(.*; did you mean --json\?\)$/);
    misuse(['check', TRACE, '--report'], /^--report: missing value \(expected --report <file>\)$/);
    misuse(['check'], /^check: missing argument <trace> \(expected goldilocks check \[options\] <trace>\)$/);
    misuse(
      ['check', TRACE, TRACE],
      /^check: too many arguments \(expected goldilocks check \[options\] <trace>\)$/,
    );
  });
});

describe('convert: misuse is one line and exit 2', () => {
  it('unknown formats', () => {
    misuse(
      ['convert', '--from', 'x', TRACE],
      /^--from: unknown format 'x' \(expected auto, std, ext, rr, bin\)$/,
    );
    misuse(['convert', '--to', 'x', TRACE], /^--to: unknown format 'x' \(expected std, ext, bin\)$/);
  });
  it('a missing trace, an unwritable output', () => {
    misuse(['convert', tempPath('missing.std')], /^trace: no such file '.*missing\.std'/);
    misuse(['convert', '-o', NOWHERE, TRACE], /^--output: cannot write '.*out\.json': no directory/);
  });
});

describe('run: misuse is one line and exit 2, before the program runs', () => {
  it('unknown option values', () => {
    misuse(
      ['run', '--on-race', 'x', PROGRAM],
      /^--on-race: unknown mode 'x' \(expected throw, report, abort\)$/,
    );
    misuse(
      ['run', '-d', 'djit', PROGRAM],
      /^--detector: unknown detector 'djit' \(expected goldilocks, fasttrack, eraser\)$/,
    );
    misuse(
      ['run', '--fail-on-race', '--on-race=abort', PROGRAM],
      /^--fail-on-race: cannot be used with --on-race/,
    );
  });
  it('a missing entry file, as node resolves it (x → x.js, x/index.js)', () => {
    misuse(
      ['run', tempPath('missing.mjs')],
      /^entry: no such file '.*missing\.mjs' \(expected a JavaScript or TypeScript file\)$/,
    );
    misuse(['run', DIR], /^entry: no such file '.*dir'/);
    const r = cli(['run', PROGRAM.replace(/\.mjs$/, '')]); // no extension: node's resolution finds no file either
    assert.equal(r.status, 2);
  });
  it('an unreadable entry file', { skip: process.getuid?.() === 0 ? 'root reads every file' : false }, () => {
    const file = tempFile('secret.mjs', 'console.log(1);\n');
    chmodSync(file, 0);
    misuse(
      ['run', file],
      /^entry: no permission to read '.*secret\.mjs' \(expected a JavaScript or TypeScript file/,
    );
  });
  it('a missing command after --', () => {
    misuse(
      ['run', '--', 'goldilocks-no-such-command'],
      /^run: no such command 'goldilocks-no-such-command' \(expected a program on the PATH/,
    );
    misuse(['run', '--', TRACE], /^run: no permission to execute '.*one\.std'/);
  });
  it('unwritable --report and --record files', () => {
    misuse(['run', '--report', NOWHERE, PROGRAM], /^--report: cannot write '.*out\.json': no directory/);
    misuse(['run', '--record', NOWHERE, PROGRAM], /^--record: cannot write '.*out\.json': no directory/);
  });
  it('a --shadow-limit that is not a number of MiB from 1 to 8191', () => {
    for (const limit of ['0', '8192', '1.5', 'lots'])
      misuse(
        ['run', '--shadow-limit', limit, PROGRAM],
        new RegExp(
          `^--shadow-limit: invalid number '${esc(limit)}' \\(expected an integer from 1 to 8191\\)$`,
        ),
      );
  });
  it('a missing program', () => {
    misuse(['run'], /^run: missing argument <program> \(expected goldilocks run \[options\] </);
  });
});

describe('jumble: misuse is one line and exit 2', () => {
  it('unknown option values', () => {
    misuse(
      ['jumble', '--runs', '0', PROGRAM],
      /^--runs: invalid number '0' \(expected a positive integer\)$/,
    );
    misuse(
      ['jumble', '--jobs', 'x', PROGRAM],
      /^--jobs: invalid number 'x' \(expected a positive integer\)$/,
    );
    misuse(
      ['jumble', '--seed', '-1', PROGRAM],
      /^--seed: invalid number '-1' \(expected a non-negative integer\)$/,
    );
    misuse(['jumble', '--bogus', PROGRAM], /^jumble: unknown option '--bogus' \(expected an option of /);
  });
  it('a missing entry file or --races report, an unwritable --json file', () => {
    misuse(
      ['jumble', tempPath('missing.mjs')],
      /^jumble: the detection run failed: entry: no such file '.*missing\.mjs' \(expected a JavaScript or TypeScript file\)$/,
    );
    misuse(
      ['jumble', '--races', tempPath('none.json'), PROGRAM],
      /^--races: no such file '.*none\.json' \(expected a JSON report of goldilocks run\)$/,
    );
    misuse(['jumble', '--json', NOWHERE, PROGRAM], /^--json: cannot write '.*out\.json': no directory/);
    misuse(['jumble'], /^jumble: missing argument <program> \(expected goldilocks jumble \[options\] </);
  });
});

describe('goldilocks: misuse is one line and exit 2', () => {
  it('an unknown command or option', () => {
    misuse(['bogus'], /^unknown command 'bogus' \(expected check, convert or run\)$/);
    misuse(['--bogus'], /^unknown option '--bogus' \(expected an option of goldilocks --help\)$/);
  });
});
