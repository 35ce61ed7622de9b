/**
 * Pipelined reading (src/trace/pipeline.ts: the trace parsed in a worker thread while the detectors run) gives
 * what reading in one thread gives: the same events with the same ids and line numbers, the same verdicts and
 * reports, the same errors. These tests use the compiled `dist/` (built by `npm test`), whose parser thread
 * starts without the TypeScript loader.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { checkFile } from '../../dist/check.js';
import { TraceError } from '../../dist/model/errors.js';
import { Symbols } from '../../dist/model/symbols.js';
import { StartedParser } from '../../dist/trace/parser-start.js';
import { ParserThread, readTracePipelined } from '../../dist/trace/pipeline.js';
import { readTrace } from '../../dist/trace/reader.js';
import { formatEvent } from '../../dist/trace/writer.js';
import { feasibleTrace } from '../helpers/gen.js';
import { cli, ROOT, tempFile, tempPath } from '../helpers/helpers.js';
import { generatedTrace, rejection, reports } from '../helpers/reading.js';

/** Every event of `path` as `line:text` (extended format), read one way or the other. */
async function events(path: string, pipelined: boolean, batchSize?: number, maxInFlight?: number) {
  const symbols = new Symbols();
  const lines: string[] = [];
  const onBatch = (b: Parameters<Parameters<typeof readTrace>[2]>[0]) => {
    for (let i = 0; i < b.length; i++)
      lines.push(`${b.line[i]}:${b.firstIndex + i}:${formatEvent(symbols, b, i)}`);
  };
  const result = pipelined
    ? await readTracePipelined(path, symbols, onBatch, { batchSize }, maxInFlight)
    : await readTrace(path, symbols, onBatch, { batchSize });
  symbols.describeUpTo(symbols.variables.size); // variables are described where used (objects.test.ts)
  return { lines, result, variables: symbols.variables.size, objects: symbols.objects.size };
}

describe('pipelined reading: the parser in a worker thread', () => {
  it('random feasible traces: the same events, ids and line numbers, in small batches with 1 in flight', async () => {
    await fc.assert(
      fc.asyncProperty(feasibleTrace({ maxCommands: 60 }), async (t) => {
        const path = tempFile('random.trace', t.text);
        const a = await events(path, false, 7);
        const b = await events(path, true, 7, 1);
        assert.deepEqual(b.lines, a.lines);
        assert.deepEqual(b.result, a.result);
        assert.equal(b.variables, a.variables);
        assert.equal(b.objects, a.objects);
      }),
      { numRuns: 25 },
    );
  });

  it('the same reports from every detector, on text, gzip and binary input of a generated trace', async () => {
    const text = await generatedTrace(3);
    const gz = tempFile('gen.trace.gz', gzipSync(readFileSync(text)));
    const bin = tempPath('gen.bin');
    assert.equal(cli(['convert', '--to', 'bin', text, '-o', bin]).status, 0);
    for (const f of [text, gz, bin]) {
      const a = await reports(f, { pipeline: 'off' });
      const b = await reports(f, { pipeline: 'on' });
      assert.equal(b.reading, 'parser thread');
      assert.ok(a.result.reports[0].races.length > 0, 'the trace should have races');
      assert.deepEqual(b.result, a.result, f);
    }
  });

  const real = join(ROOT, '..', 'shared', 'traces');
  it('the same reports on the real traces with commits, volatiles and RoadRunner names', {
    skip: existsSync(real) ? false : `${real} is absent`,
  }, async () => {
    const files = [
      ...readdirSync(join(real, 'real')).map((f) => join(real, 'real', f)),
      join(real, 'roadrunner', 'test.trace.gz'),
      join(real, 'roadrunner', 'volatileflag.trace.gz'),
    ];
    for (const f of files) {
      const a = await reports(f, { pipeline: 'off', lenient: true });
      const b = await reports(f, { pipeline: 'on', lenient: true });
      assert.deepEqual(b.result, a.result, f);
    }
  });

  it('a malformed line: the same TraceError (file, line, column, text, expected)', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `T0|w(x${i % 50})|L${i}`);
    lines[3777] = 'T0|w(x|L1';
    const path = tempFile('bad.trace', `${lines.join('\n')}\n`);
    const a = await rejection(() => checkFile(path, { pipeline: 'off' }));
    const b = await rejection(() => checkFile(path, { pipeline: 'on' }));
    assert.ok(a instanceof TraceError && b instanceof TraceError, `${a} / ${b}`);
    assert.equal(b.line, 3778);
    assert.deepEqual({ ...b, message: b.message }, { ...a, message: a.message });
  });

  it('an infeasible event (thrown by the engine on the calling thread): the same error; --lenient the same warnings', async () => {
    const path = tempFile('infeasible.trace', 'T0|acq(l)|1\nT0|w(x)|2\nT1|rel(l)|3\nT1|w(x)|4\n');
    const a = await rejection(() => checkFile(path, { pipeline: 'off' }));
    const b = await rejection(() => checkFile(path, { pipeline: 'on' }));
    assert.ok(b instanceof TraceError, String(b));
    assert.equal(b.message, a.message);
    const la = await reports(path, { pipeline: 'off', lenient: true });
    const lb = await reports(path, { pipeline: 'on', lenient: true });
    assert.equal(la.result.warnings, 1);
    assert.deepEqual(lb.result, la.result);
  });

  it('a parser thread started before it is read: what it sent meanwhile is read in order; stopped unread, it lets the process exit', async () => {
    const path = await generatedTrace(3);
    const a = await events(path, false, 1000);
    const thread = new ParserThread(path, { batchSize: 1000 }, 2);
    await new Promise((resolve) => setTimeout(resolve, 300)); // its first batches wait in its queue
    const symbols = new Symbols();
    const lines: string[] = [];
    const result = await thread.read(symbols, (b) => {
      for (let i = 0; i < b.length; i++)
        lines.push(`${b.line[i]}:${b.firstIndex + i}:${formatEvent(symbols, b, i)}`);
    });
    assert.deepEqual(lines, a.lines);
    assert.deepEqual(result, a.result);
    // a script of its own (a worker inherits `--input-type` of `node -e`, and then fails to start)
    const stopper = tempFile(
      'stop.mjs',
      `const { ParserThread } = await import(${JSON.stringify(join(ROOT, 'dist', 'trace', 'pipeline.js'))});
      new ParserThread(${JSON.stringify(path)}, { batchSize: 100 }, 1).stop();`,
    );
    const stopped = spawnSync(process.execPath, [stopper], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(stopped.status, 0, stopped.stderr);
  });

  it('a thread started apart (the executable, cli/prestart.ts) and adopted: taken for its file, read in order; stopped for another', async () => {
    const path = await generatedTrace(3);
    const a = await events(path, false);
    ParserThread.adopt(new StartedParser(path, { progress: true }));
    await new Promise((resolve) => setTimeout(resolve, 300)); // its first batches wait in its queue
    assert.equal(ParserThread.take(path, 'std'), undefined, 'a format given: not taken (and stopped)');
    ParserThread.adopt(new StartedParser(path, { progress: true }));
    assert.equal(ParserThread.take(`${path}.other`, undefined), undefined, 'another file: not taken');
    ParserThread.adopt(new StartedParser(path, { progress: true }));
    const thread = ParserThread.take(path, 'auto');
    assert.ok(thread !== undefined);
    assert.equal(ParserThread.take(path, 'auto'), undefined, 'taken once');
    const symbols = new Symbols();
    const lines: string[] = [];
    let progress = 0;
    const result = await thread.read(
      symbols,
      (b) => {
        for (let i = 0; i < b.length; i++)
          lines.push(`${b.line[i]}:${b.firstIndex + i}:${formatEvent(symbols, b, i)}`);
      },
      () => progress++,
    );
    assert.deepEqual(lines, a.lines);
    assert.deepEqual(result, a.result);
    assert.ok(progress > 0, 'started reporting progress');
  });

  it('a check that fails before reading (an unknown detector) stops the parser thread started for it', () => {
    const path = tempFile('big.trace', 'T0|w(x)|1\n'.repeat(1_000_000)); // 10 MB: `auto` starts a parser thread early
    const script = tempFile(
      'fail.mjs',
      `const { checkFile } = await import(${JSON.stringify(join(ROOT, 'dist', 'check.js'))});
      await checkFile(${JSON.stringify(path)}, { detectors: ['none-such'] }).catch((e) => console.log('failed:', e.message));`,
    );
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /failed:/);
  });

  it('a missing file: the same error', async () => {
    const path = join(tempPath('none'), 'missing.trace');
    const a = await rejection(() => checkFile(path, { pipeline: 'off' }));
    const b = await rejection(() => checkFile(path, { pipeline: 'on' }));
    assert.equal(b.message, a.message);
    assert.equal((b as { code?: string }).code, 'ENOENT');
  });

  it('the CLI: the same output through --pipeline on, split and off, from a file and from stdin', () => {
    const text = 'T0|fork(T1)|M.java:1\nT0|w(x)|M.java:2\nT1|w(x)|W.java:3\n';
    const path = tempFile('cli.trace', text);
    const strip = (s: string) => s.replace(/[\d.]+ s, [\d.,]+[MK]? events\/s/g, 'TIME');
    for (const input of [undefined, text]) {
      const arg = input === undefined ? path : '-';
      const off = cli(['check', '--pipeline', 'off', '--no-color', arg], input);
      for (const mode of ['on', 'split']) {
        const on = cli(['check', '--pipeline', mode, '--no-color', arg], input);
        assert.equal(on.status, off.status, mode);
        assert.equal(strip(on.stdout), strip(off.stdout), mode);
        assert.match(on.stdout, /\bx\b/, 'the race on x is reported');
      }
    }
  });
});
