import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { checkFile, verdicts } from '../../src/check.js';
import { checkText } from '../../src/check-text.js';
import { SkipList } from '../../src/engine/skip.js';
import { TraceError } from '../../src/model/errors.js';
import { KIND_NAMES } from '../../src/model/events.js';
import { StdParser } from '../../src/trace/std.js';
import {
  assertDecisionShares,
  CLI,
  chunked,
  cli,
  expectTraceError,
  ROOT,
  tempFile,
  tempPath,
} from '../helpers/helpers.js';

function syntaxError(text: string, format?: 'std' | 'ext' | 'rr'): TraceError {
  return expectTraceError(() => checkText(text, { format }, 'bad.trace'));
}

describe('extended format', () => {
  it('reads every operation, values, empty and textual locations', () => {
    const text = [
      '# comment',
      'T0|alloc(o)|A.java:1',
      'T0|w(o.f)=5|A.java:2',
      'T0|r(o.f)=5|',
      'T0|vw(v)|x',
      'T0|rmw(v)|x',
      'T0|acq(l)|1',
      'T0|wait(l)|1',
      'T0|notify(l)|1',
      'T0|rel(l)|1',
      'T0|fork(T1)|1',
      'T1|vr(v)|1',
      'T1|ard(o.f,atomic@sab#1+0:4)|a.mjs:3:1',
      'T1|awd(a[3],v)|',
      'T1|commit(o.f,a[3];@7[2])|tx',
      'T1|commit(;x)|tx',
      'T1|enter(m)|',
      'T1|exit(m)|',
      'T1|begin|',
      'T1|end|',
      'T1|dummy(d)|',
      'T0|join(T1)|1',
      '',
    ].join('\n');
    const r = checkText(text, { detectors: ['goldilocks', 'fasttrack'] });
    assert.equal(r.engine.events, 21);
    assert.equal(r.input.skipped.get('comment'), 1);
    assert.equal(r.symbols.values.name(0), '5');
    assert.equal(r.symbols.objects.name(r.symbols.objectOf(r.symbols.variables.lookup('@7[2]'))), '@7');
    assert.equal(verdicts(r, 0).size, 0);
  });

  it('names the file, line, column, text and what was expected on a malformed line', () => {
    let e = syntaxError('T0|w(x)|1\nT0|x(y)|1\n');
    assert.equal(e.line, 2);
    assert.equal(e.column, 4);
    assert.match(e.message, /^bad\.trace:2:4: syntax error: expected an operation/);
    assert.match(e.message, /T0\|x\(y\)\|1/);
    e = syntaxError('T0|w(x)\n');
    assert.match(e.message, /expected a second '\|'/);
    e = syntaxError('T0|w(x)|1|2\n');
    assert.match(e.message, /exactly three fields/);
    e = syntaxError('T0|w()|1\n');
    assert.match(e.message, /non-empty argument/);
    e = syntaxError('T0|commit(x)|1\n');
    assert.match(e.message, /no ';'/);
    e = syntaxError('T0|acq(l)=3|1\n');
    assert.match(e.message, /expected '\|' after '\)'/);
    e = syntaxError('|w(x)|1\n');
    assert.match(e.message, /thread name/);
    e = syntaxError('T0|ard(x)|1\n');
    assert.match(e.message, /expected 'ard\(VARIABLE,LOCATION\)': no ',' before the atomic location/);
    e = syntaxError('T0|awd(,v)|1\n');
    assert.match(e.message, /expected a variable name before the ','/);
    e = syntaxError('T0|awd(x,)|1\n');
    assert.match(e.message, /expected an atomic location after the ','/);
    e = syntaxError('T0|awd(x,v)=1|1\n');
    assert.match(e.message, /expected '\|' after '\)'/);
  });

  it('std format rejects extended operations and values', () => {
    assert.match(syntaxError('T0|vw(v)|1\n', 'std').message, /r\(X\), w\(X\)/);
    assert.match(syntaxError('T0|w(x)=1|1\n', 'std').message, /expected '\|' after/);
  });
});

describe('feasibility', () => {
  const infeasible = (text: string, what: RegExp) => {
    assert.throws(
      () => checkText(text),
      (e: unknown) => e instanceof TraceError && e.kind === 'infeasible' && what.test(e.message),
    );
  };
  it('reports infeasible events by name, line and index', () => {
    infeasible(
      'T0|acq(l)|\nT1|acq(l)|\n',
      /<text>:2:1: infeasible trace: acquire of lock l by thread T1 while thread T0 holds it \(event 1\)/,
    );
    infeasible('T0|rel(l)|\n', /release of lock l by thread T0, but it is not held/);
    infeasible('T0|fork(T1)|\nT0|join(T1)|\nT1|w(x)|\n', /event of thread T1 after it was joined/);
    infeasible('T1|w(x)|\nT0|fork(T1)|\n', /already has events before this fork/);
    infeasible('T0|fork(T1)|\nT0|join(T1)|\nT0|join(T1)|\n', /already joined/);
    infeasible('T0|join(T9)|\n', /never forked/);
    infeasible('T0|wait(l)|\n', /wait on lock l not held/);
  });
  it('--lenient counts warnings and goes on', () => {
    const warnings: string[] = [];
    const r = checkText('T0|acq(l)|\nT1|acq(l)|\nT1|w(x)|\n', {
      lenient: true,
      onWarning: (e) => warnings.push(e.message),
    });
    assert.equal(r.engine.warnings, 1);
    assert.equal(r.engine.events, 3);
    assert.equal(warnings.length, 1);
  });
  it('--lenient: a lock taken while held gives no alock short-circuit (precise detectors still agree)', () => {
    // T1 takes l while T0 holds it: no release orders T0's write before T1's, so it is a race for every
    // precise detector; Goldilocks must not conclude otherwise from "T1 holds the alock l".
    const text = 'T0|acq(l)|\nT0|w(x)|\nT1|acq(l)|\nT1|w(x)|\n';
    const r = checkText(text, { lenient: true, detectors: ['goldilocks', 'fasttrack', 'djit', 'eager'] });
    for (let i = 0; i < 4; i++) assert.deepEqual([...verdicts(r, i)], [['x', 3]], r.results[i].detector.name);
  });
  it('re-entrant locks are feasible', () => {
    const r = checkText('T0|acq(l)|\nT0|acq(l)|\nT0|rel(l)|\nT0|rel(l)|\nT1|acq(l)|\nT1|rel(l)|\n');
    assert.equal(r.engine.events, 6);
  });
});

describe('RoadRunner print format', () => {
  it('maps PrintTool lines to events and merges pre/post duplicates', () => {
    const text = [
      '[main: RoadRunner starting]',
      '@ Enter(0,test/Test.main([Ljava/lang/String;)V) from null',
      '@  Wr(0,null.test/Test.y_I)  Final  Test.java:5:3',
      '@  Start(0,1)',
      '@  Start(0,1)',
      '@   Acquire(1,@04)',
      '@   Rd(1,@03.test/Test.x_I)  Final  Test.java:12:8',
      '@   AWr(1,@05[3])  Final  Test.java:13:4',
      '@   VWr(1,@03.test/Test.flag_Z)  Final',
      '@   Release(1,@04)',
      '@  Join(0,1)',
      '@  Join(0,1)',
      '@  VRd(0,@03.test/Test.flag_Z)  Final',
      '@  Rd(0,@05[3])  Final  Test.java:20:4',
      '@ Exit(0,test/Test.main([Ljava/lang/String;)V)',
    ].join('\n');
    const r = checkText(text, { detectors: ['goldilocks', 'djit'] });
    assert.equal(r.input.format, 'rr');
    assert.equal(r.engine.events, 12);
    assert.equal(r.input.skipped.get('post-start line (duplicate of the pre line)'), 1);
    assert.equal(r.input.skipped.get('pre-join line (duplicate of the post line)'), 1);
    assert.equal(
      r.symbols.objects.name(r.symbols.objectOf(r.symbols.variables.lookup('@03.test/Test.x_I'))),
      '@03',
    );
    assert.equal(verdicts(r, 0).size, 0);
    assert.equal(verdicts(r, 1).size, 0);
  });
  it('reads ARd as a read and AWr as a write of the array element', () => {
    const text = [
      '@ Start(0,1)',
      '@ AWr(1,@05[3])  Final  A.java:1:1',
      '@ ARd(0,@05[3])  Final  A.java:2:1',
      '@ ARd(1,@05[4])  Final  A.java:3:1',
      '@ ARd(0,@05[4])  Final  A.java:4:1',
    ].join('\n');
    const r = checkText(text, { detectors: ['goldilocks', 'fasttrack'] });
    assert.equal(r.engine.events, 5);
    // the write and the read of element 3 race (no order between them); two reads of element 4 do not
    for (let i = 0; i < 2; i++) assert.deepEqual([...verdicts(r, i)], [['@05[3]', 2]]);
  });
  it('takes a join at its post line when the child still runs after the pre line', () => {
    const text = [
      '@ Start(0,1)',
      '@ Join(0,1)',
      '@ Wr(1,@01.C.f_I)  Final  C.java:1',
      '@ Join(0,1)',
      '@ Rd(0,@01.C.f_I)  Final  C.java:2',
    ].join('\n');
    const r = checkText(text, { detectors: ['goldilocks'] });
    assert.equal(r.engine.events, 4);
    assert.equal(verdicts(r).size, 0);
  });
});

describe('inputs and the CLI', () => {
  const racy = 'T0|fork(T1)|M.java:1\nT0|w(x)|M.java:2\nT1|w(x)|W.java:3\n';
  it('reads gzip transparently and agrees with the plain file', async () => {
    const a = await checkFile(tempFile('a.trace', racy), { detectors: ['goldilocks'] });
    const b = await checkFile(tempFile('a.trace.gz', gzipSync(racy)), { detectors: ['goldilocks'] });
    assert.equal(b.input.gzip, true);
    assert.deepEqual(verdicts(a), verdicts(b));
  });
  it('exit codes: 0 without --fail-on-race, 1 with it, 2 for bad input, stdin with -', () => {
    const p = tempFile('r.trace', racy);
    assert.equal(cli(['check', p]).status, 0);
    const r = cli(['check', '--fail-on-race', p]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /WARNING: goldilocks: data race on x/); // the wording of `run` (test/record.test.ts)
    assert.match(r.stdout, /write by thread T1 at W\.java:3 \(event 2\)/);
    assert.match(r.stdout, /previous write by thread T0 at M\.java:2 \(event 1\)/);
    assert.match(r.stdout, /SUMMARY: goldilocks: 1 racy variables/);
    assert.equal(cli(['check', '-', '--fail-on-race'], racy).status, 1);
    const bad = cli(['check', tempFile('bad.trace', 'T0|w(x)|1\nT0|oops|1\n')]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /bad\.trace:2:4: syntax error/);
    assert.doesNotMatch(bad.stderr, /at .*\.js/);
    assert.equal(cli(['check', tempPath('missing.trace')]).status, 2);
    assert.equal(cli(['check', '--detector', 'nope', p]).status, 2);
    assert.equal(cli(['check', '--bogus', p]).status, 2);
  });
  it('--stats gives the share of checks each short-circuit decided, and the mean walk length (Table 1)', () => {
    const r = cli(['check', '--stats', '--no-progress', join(ROOT, 'examples', 'figure1-ftpserver.trace')]);
    assert.equal(r.status, 0);
    assertDecisionShares(r.stdout);
    assert.match(r.stdout, /^ {2}walks +\d+ \(mean [\d.]+ cells\)$/m);
    for (const key of ['listPeak', 'cellsCollected', 'eagerRuns'])
      assert.match(r.stdout, new RegExp(`^  ${key} `, 'm'));
  });
  it('a progress bar on a terminal for inputs over 8 MiB, none with --no-progress or when stderr is not one', () => {
    const big = tempFile('big.trace', 'T0|w(x)|1\n'.repeat(950_000)); // 9.06 MiB
    const tty = join(ROOT, 'test', 'fixtures', 'stderr-tty.cjs');
    const check = (preload: string[], options: string[] = []) =>
      spawnSync(process.execPath, [...preload, CLI, 'check', ...options, big], { encoding: 'utf8' });
    const shown = check(['--require', tty]);
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stderr, /checking \[[^\]]+\] 100% \| 10\/10 MiB/);
    assert.match(shown.stdout, /SUMMARY: goldilocks: no races in 950,000 events/);
    const off = check(['--require', tty], ['--no-progress']);
    assert.equal(off.status, 0);
    assert.doesNotMatch(off.stderr, /checking \[/);
    assert.doesNotMatch(check([]).stderr, /checking \[/);
  });
  it('races are deduplicated by their pair of source locations, with a count; --max-reports keeps the first pairs', () => {
    const trace = tempFile(
      'pairs.trace',
      [
        'T0|fork(T1)|',
        ...['x', 'y', 'z'].flatMap((v) => [`T0|w(${v})|A.java:1`, `T1|w(${v})|B.java:2`]),
        'T0|w(u)|C.java:3',
        'T1|r(u)|D.java:4',
        '',
      ].join('\n'),
    );
    const j = JSON.parse(cli(['check', '--json', '--max-reports', '1', trace]).stdout);
    assert.equal(j.summary.racyVariables, 4);
    assert.equal(j.summary.racyEvents, 4);
    assert.equal(j.summary.racyLocations, 2); // the current accesses' locations: B.java:2 and D.java:4
    assert.equal(j.summary.racePairs, 2);
    assert.equal(j.races.length, 1);
    assert.equal(j.racesOmitted, 1);
    assert.equal(j.races[0].count, 3);
    assert.equal(j.races[0].variable, 'x');
    const text = cli(['check', '--max-reports', '1', trace]).stdout;
    assert.match(text, /\(this pair of locations raced 3 times\)/);
    assert.match(text, /1 more location pairs not shown \(--max-reports\)/);
  });
  it('--json follows the documented schema', () => {
    const r = cli(['check', '--json', tempFile('j.trace', racy)]);
    const j = JSON.parse(r.stdout);
    assert.equal(j.schema, 'goldilocks-report/1');
    assert.equal(j.summary.events, 3);
    assert.equal(j.summary.racyEvents, 1);
    assert.deepEqual(j.racyVariables, ['x']);
    assert.equal(j.races[0].variable, 'x');
    assert.equal(j.races[0].current.index, 2);
    assert.equal(j.races[0].previous.index, 1);
  });
  it('convert round-trips the extended format and refuses what STD cannot spell', () => {
    const text = 'T0|fork(T1)|1\nT0|w(o.f)=3|\nT1|commit(a;b)|2\nT1|vr(v)|3\n';
    const out = cli(['convert', tempFile('c.trace', text)]);
    assert.equal(out.status, 0);
    assert.equal(out.stdout, text);
    // -o - is standard output, not a file named '-'
    const dash = cli(['convert', '-o', '-', tempFile('c3.trace', text)]);
    assert.equal(dash.status, 0);
    assert.equal(dash.stdout, text);
    assert.equal(existsSync(join(ROOT, '-')), false);
    const std = cli(['convert', '--to', 'std', tempFile('c2.trace', text)]);
    assert.equal(std.status, 2);
    assert.match(std.stderr, /no spelling in RAPID STD/);
  });
  it('convert into a pipe closed early (| head) ends silently with 141, as a tool killed by SIGPIPE', async () => {
    // 2.6 MB of output: more than a pipe holds, so the writes meet the closed pipe
    const trace = tempFile('pipe.trace', 'T0|w(o.f)|Foo.java:12\n'.repeat(120_000));
    const child = spawn(process.execPath, [CLI, 'convert', trace], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 141);
  });
  it('--skip leaves out the listed accesses (static pre-elimination)', () => {
    const skip = SkipList.parse('# race-free by analysis\nvariable x\n', 'skip');
    const r = checkText(racy, { skip });
    assert.equal(verdicts(r).size, 0);
    assert.equal(r.engine.skippedAccesses, 2);
    assert.throws(() => SkipList.parse('varible x\n', 'skip.txt'), /skip\.txt:1:1/);
  });
});

describe('STD/extended parser fast path', () => {
  /** Reads `text` in chunks of `chunk` bytes: the events as `line:ext` lines, then the rest or the error. */
  function parseAll(text: string, strict: boolean, chunk: number, fastPath: boolean): string {
    const proto = StdParser.prototype as unknown as { parseSimpleLines: unknown };
    const simple = proto.parseSimpleLines;
    assert.equal(typeof simple, 'function');
    // The general parser alone: what the one-pass fast path must agree with, event for event and error for error.
    if (!fastPath) proto.parseSimpleLines = (_buf: Buffer, pos: number) => pos;
    const lines: string[] = [];
    try {
      const r = chunked(Buffer.from(text, 'utf8'), () => chunk, {
        format: strict ? 'std' : 'ext',
        name: 'p.trace',
        batchSize: 4,
        lineNumbers: true,
        into: lines,
      });
      return `${lines.join('\n')}\nrest:${r.longestRest}`;
    } catch (e) {
      return `${lines.join('\n')}\nerror:${(e as Error).message}`;
    } finally {
      proto.parseSimpleLines = simple;
    }
  }

  /** Longer than the fast path's copy of the last thread name (64 bytes). */
  const LONG_THREAD = 'T'.repeat(70);

  it('reuses the thread of the line before only for the same name; CRLF lines; long names; numbered locations', () => {
    const text = [
      'T0|r(x)|L1',
      'T|r(x)|L1',
      'T00|w(x)|',
      'T0|vw(v)|L2\r',
      `${LONG_THREAD}|r(o.f)|L3`,
      `${LONG_THREAD}x|r(o.f)|L3\r`,
      `${LONG_THREAD}|acq(l)|L4`,
      'T1|w(a[3])|é',
      'T1|r(x)=5|L5',
      'T1|w(x)|L6',
      // numbered locations: a number seen twice is in the fast path's table, where 007 and 00 must not find it
      'T1|w(x)|7',
      'T1|w(x)|7',
      'T1|w(x)|007',
      'T1|w(x)|0',
      'T1|w(x)|0',
      'T1|w(x)|00',
      'T1|w(x)|1234567',
      'T1|w(x)|1234567',
    ].join('\n');
    const expected = [
      '1:T0|r(x)|L1',
      '2:T|r(x)|L1',
      '3:T00|w(x)|',
      '4:T0|vw(v)|L2',
      `5:${LONG_THREAD}|r(o.f)|L3`,
      `6:${LONG_THREAD}x|r(o.f)|L3`,
      `7:${LONG_THREAD}|acq(l)|L4`,
      '8:T1|w(a[3])|é',
      '9:T1|r(x)=5|L5',
      '10:T1|w(x)|L6',
      '11:T1|w(x)|7',
      '12:T1|w(x)|7',
      '13:T1|w(x)|007',
      '14:T1|w(x)|0',
      '15:T1|w(x)|0',
      '16:T1|w(x)|00',
      '17:T1|w(x)|1234567',
      '18:T1|w(x)|1234567',
    ].join('\n');
    // The events, without the longest rest carried between chunks (which depends on the chunk size).
    const events = (out: string) => out.replace(/\nrest:\d+$/, '');
    for (const chunk of [1, 7, 16, 1000]) {
      assert.equal(events(parseAll(text, false, chunk, true)), expected, `chunks of ${chunk} bytes`);
      assert.equal(
        events(parseAll(text, false, chunk, false)),
        expected,
        `${chunk}-byte chunks, general parser`,
      );
    }
  });

  it('takes the lines that name a new variable or location: only a new thread, lock or volatile goes to the general parser', () => {
    // issue 24 §3: a trace's first lines name new variables and locations at almost every line (about 5,000 new
    // names in the first 4,096 lines of the 2M-event realistic trace), parsed before V8 has optimized any of it
    const proto = StdParser.prototype as unknown as { parseLine: (...args: unknown[]) => void };
    const general = proto.parseLine;
    let calls = 0;
    proto.parseLine = function (this: unknown, ...args: unknown[]) {
      calls++;
      general.apply(this, args);
    };
    const lines = ['T0|acq(l)|F.java:1', 'T1|r(x)|F.java:1'];
    for (let i = 0; i < 50; i++)
      lines.push(`T${i % 2}|${i % 3 === 0 ? 'r' : 'w'}(o${i}.f)|${i % 2 === 0 ? 100 + i : `F.java:${i}`}`);
    lines.push('T0|rel(l)|F.java:1');
    try {
      const { lines: events } = chunked(Buffer.from(`${lines.join('\n')}\n`, 'utf8'), () => 1 << 16, {
        format: 'std',
      });
      assert.deepEqual(events, lines);
    } finally {
      proto.parseLine = general;
    }
    // T0 and its lock l, then T1: the general parser interns the first name of a thread, lock or volatile
    assert.equal(calls, 2);
  });

  it('agrees with the general parser on random lines, valid and not, in random chunks', () => {
    const piece = fc.constantFrom(
      'T0',
      'T1',
      '|',
      '(',
      ')',
      'r',
      'w',
      'acq',
      'rel',
      'vr',
      'fork',
      'commit',
      'begin',
      'x',
      'o.f',
      'a[3]',
      '=',
      '5',
      ';',
      ',',
      '#',
      '\r',
      ' ',
      'é',
      'L:1',
      '',
      LONG_THREAD,
      'u\u00f2',
    );
    const line = fc.oneof(
      fc.array(piece, { maxLength: 10 }).map((a) => a.join('')),
      fc
        .tuple(
          fc.constantFrom('T0', 'T1', 'T', 'T00', '', LONG_THREAD, `${LONG_THREAD}x`),
          fc.constantFrom(...KIND_NAMES, 'bogus', 'r '),
          fc.constantFrom('x', 'o.f', 'C.f@12', '@7[3]', '', 'a)b', 'T1'),
          // numbered locations (RAPID's): a table of numbers in the fast path, so also leading zeros, long ones, CRs
          fc.constantFrom(
            '',
            'F.java:3',
            'a|b',
            'é',
            '\r',
            '42',
            '0',
            '7',
            '007',
            '1234567',
            '12\r',
            '3a',
            '4\r5',
          ),
        )
        .map(([t, op, arg, loc]) => `${t}|${op}(${arg})|${loc}`),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 40 }),
        (lines, strict, finalNewline, chunk) => {
          const text = lines.join('\n') + (finalNewline ? '\n' : '');
          assert.equal(parseAll(text, strict, chunk, true), parseAll(text, strict, chunk, false));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
