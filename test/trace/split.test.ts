/**
 * Split reading (src/trace/split.ts: a text trace cut into segments that parser threads parse in parallel, each
 * with its own symbol tables, their ids mapped back in trace order) gives what reading in one thread gives: the
 * same events with the same ids and line numbers, the same verdicts and reports, the same errors. Segments here are
 * a few bytes to a few KiB, so that even small traces are cut in many places. These tests use the compiled `dist/`
 * (built by `npm test`), whose parser threads start without the TypeScript loader.
 */
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import type { CpuInfo } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkFile } from '../../dist/check.js';
import { TraceError } from '../../dist/model/errors.js';
import type { EventBatch } from '../../dist/model/events.js';
import { Symbols } from '../../dist/model/symbols.js';
import { readTrace } from '../../dist/trace/reader.js';
import {
  autoMayUseThreads,
  CORE_SAMPLE_MS,
  type CoreProbe,
  chooseReading,
  FREE_IDLE_CORES,
  idleCores,
  OWN_SAMPLE_MS,
  PIPELINE_MIN_BYTES,
  SPLIT_MIN_BYTES,
  sampleCores,
} from '../../dist/trace/reading.js';
import { readTraceSplit, type SplitOptions, segmentBounds } from '../../dist/trace/split.js';
import { formatEvent } from '../../dist/trace/writer.js';
import { feasibleTrace } from '../helpers/gen.js';
import { ROOT, tempFile, tempPath } from '../helpers/helpers.js';
import { generatedTrace, rejection, reports } from '../helpers/reading.js';

/** Every event of `path` as `line:index:text` (extended format), the result, the names and each variable's object. */
async function events(path: string, split?: SplitOptions, batchSize?: number) {
  const symbols = new Symbols();
  const lines: string[] = [];
  const onBatch = (b: EventBatch) => {
    for (let i = 0; i < b.length; i++)
      lines.push(`${b.line[i]}:${b.firstIndex + i}:${formatEvent(symbols, b, i)}`);
  };
  const result =
    split === undefined
      ? await readTrace(path, symbols, onBatch, { batchSize })
      : await readTraceSplit(path, 'ext', symbols, onBatch, { batchSize }, split);
  symbols.describeUpTo(symbols.variables.size); // variables are described where used (objects.test.ts)
  const names = [symbols.threads, symbols.variables, symbols.objects, symbols.locations, symbols.values].map(
    (t) => Array.from({ length: t.size }, (_, id) => t.name(id)),
  );
  const objectOf = Array.from(symbols.variableObject.subarray(0, symbols.variables.size));
  return { lines, result, names, objectOf };
}

const SMALL: SplitOptions = { workers: 2, segmentBytes: 512 };

describe('split reading: a text trace parsed by several parser threads', () => {
  it('segment bounds: line starts, strictly increasing, none inside a line longer than a segment', () => {
    const text = `${'a'.repeat(10)}\n${'b'.repeat(100)}\n\nc\n${'d'.repeat(7)}`;
    const path = tempFile('bounds.trace', text);
    const fd = openSync(path, 'r');
    try {
      for (const size of [1, 5, 11, 12, 50, 200]) {
        const b = segmentBounds(fd, text.length, size);
        assert.equal(b[0], 0);
        assert.equal(b[b.length - 1], text.length);
        for (let k = 1; k < b.length - 1; k++) {
          assert.ok(b[k] > b[k - 1], `${size}: ${b}`);
          assert.equal(text[b[k] - 1], '\n', `${size}: ${b} (bound ${b[k]} is not a line start)`);
        }
      }
      assert.deepEqual(segmentBounds(fd, text.length, 1), [0, 11, 112, 113, 115, text.length]);
      assert.deepEqual(segmentBounds(fd, text.length, 5), [0, 11, 112, text.length]);
      assert.deepEqual(segmentBounds(fd, text.length, 1000), [0, text.length]);
    } finally {
      closeSync(fd);
    }
  });

  it('random feasible traces: the same events, ids, objects and line numbers, with 1 to 3 threads and tiny segments', async () => {
    await fc.assert(
      fc.asyncProperty(
        feasibleTrace({ maxCommands: 80 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 3 }),
        async (t, workers, segmentBytes, window) => {
          const path = tempFile('random.trace', t.text);
          const a = await events(path, undefined, 7);
          const b = await events(path, { workers, segmentBytes, window }, 7);
          assert.deepEqual(b, a);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('blank lines, comments, CRLF, a last line without a newline, a line longer than a segment', async () => {
    const long = `T1|w(${'x'.repeat(3000)})|L`;
    const text = `# head\r\nT0|fork(T1)|a\r\n\r\n${long}\n# mid\n\nT0|r(y)=3|b\r\nT1|w(y)|c`;
    const path = tempFile('odd.trace', text);
    const a = await events(path);
    for (const segmentBytes of [1, 16, 2000, 1 << 20]) {
      const b = await events(path, { workers: 2, segmentBytes });
      assert.deepEqual(b, a, String(segmentBytes));
    }
    assert.equal(a.result.skipped.size > 0, true);
  });

  it('the same reports from every detector on a generated trace cut into 100 segments', async () => {
    const text = await generatedTrace(5);
    const size = readFileSync(text).length;
    const a = await reports(text, { pipeline: 'off' });
    const b = await reports(text, { pipeline: 'split', split: { segmentBytes: Math.ceil(size / 100) } });
    assert.equal(b.reading, 'split');
    assert.ok(a.result.reports[0].races.length > 0, 'the trace should have races');
    assert.deepEqual(b.result, a.result);
  });

  const real = join(ROOT, '..', 'shared', 'traces', 'real');
  it('the same reports on the real traces of ../shared/traces/real', {
    skip: existsSync(real) ? false : `${real} is absent`,
  }, async () => {
    for (const f of readdirSync(real).map((n) => join(real, n))) {
      const a = await reports(f, { pipeline: 'off', lenient: true });
      const b = await reports(f, { pipeline: 'split', lenient: true, split: { segmentBytes: 4096 } });
      assert.equal(b.reading, 'split', f);
      assert.deepEqual(b.result, a.result, f);
    }
  });

  it('a malformed line in a later segment: the same TraceError (file, line, column, text, expected)', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `T0|w(x${i % 50})|L${i}`);
    lines[3777] = 'T0|w(x|L1';
    lines[4500] = 'T0|bad';
    const path = tempFile('bad.trace', `${lines.join('\n')}\n`);
    const a = await rejection(() => checkFile(path, { pipeline: 'off' }));
    const b = await rejection(() => checkFile(path, { pipeline: 'split', split: { segmentBytes: 1000 } }));
    assert.ok(a instanceof TraceError && b instanceof TraceError, `${a} / ${b}`);
    assert.equal(b.line, 3778);
    assert.deepEqual({ ...b, message: b.message }, { ...a, message: a.message });
  });

  it('an infeasible event (thrown by the engine on the calling thread): the same error', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `T0|w(x${i % 9})|L${i}`);
    lines[2500] = 'T1|rel(l)|X';
    const path = tempFile('infeasible.trace', `${lines.join('\n')}\n`);
    const a = await rejection(() => checkFile(path, { pipeline: 'off' }));
    const b = await rejection(() => checkFile(path, { pipeline: 'split', split: { segmentBytes: 700 } }));
    assert.ok(b instanceof TraceError, String(b));
    assert.equal(b.message, a.message);
  });

  it('an error thrown by the detectors stops the parser threads and rejects with it', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `T0|w(x${i % 9})|L${i}`);
    const path = tempFile('stop.trace', `${lines.join('\n')}\n`);
    let batches = 0;
    const e = await rejection(() =>
      readTraceSplit(
        path,
        'ext',
        new Symbols(),
        () => {
          if (++batches === 3) throw new Error('stop here');
        },
        { batchSize: 100 },
        SMALL,
      ),
    );
    assert.equal(e.message, 'stop here');
  });

  it('a missing file: the same error as in one thread', async () => {
    const path = join(tempPath('none'), 'missing.trace');
    const a = await rejection(() => readTrace(path, new Symbols(), () => {}));
    const b = await rejection(() => readTraceSplit(path, 'ext', new Symbols(), () => {}));
    assert.equal(b.message, a.message);
    assert.equal((b as { code?: string }).code, 'ENOENT');
  });

  it('chooseReading: split only for text files in the extended or STD format; auto never for stdin, small or binary files', () => {
    for (const free of [true, false]) {
      assert.equal(chooseReading('split', 'a.trace', 10, 'ext', free), 'split');
      assert.equal(chooseReading('split', 'a.std', 10, 'std', free), 'split');
      for (const kind of ['gzip', 'rr', 'bin', 'unknown'] as const)
        assert.equal(chooseReading('split', 'a', 1 << 30, kind, free), 'parser thread', kind);
      assert.equal(chooseReading('split', '-', 1 << 30, 'ext', free), 'parser thread');
      assert.equal(chooseReading('on', 'a.trace', 10, 'ext', free), 'parser thread');
      assert.equal(chooseReading('off', 'a.trace', 1 << 30, 'ext', free), 'one thread');
      assert.equal(chooseReading('auto', 'small.trace', 1 << 20, 'ext', free), 'one thread');
      assert.equal(chooseReading('auto', '-', 1 << 30, 'unknown', free), 'one thread');
      assert.equal(chooseReading('auto', 'big.bin', 1 << 30, 'bin', free), 'one thread');
    }
    assert.equal(chooseReading('auto', 'mid.trace', SPLIT_MIN_BYTES - 1, 'ext', true), 'parser thread');
    assert.equal(chooseReading('auto', 'big.std', SPLIT_MIN_BYTES, 'std', true), 'split');
    assert.equal(chooseReading('auto', 'big.trace.gz', SPLIT_MIN_BYTES, 'gzip', true), 'parser thread');
    assert.equal(chooseReading('auto', 'big.std', SPLIT_MIN_BYTES, 'std', false), 'one thread');
    assert.equal(chooseReading('auto', 'mid.trace', PIPELINE_MIN_BYTES, 'ext', false), 'one thread');
    assert.equal(autoMayUseThreads('mid.trace', PIPELINE_MIN_BYTES, 'ext'), true);
    assert.equal(autoMayUseThreads('mid.trace', PIPELINE_MIN_BYTES - 1, 'ext'), false);
    assert.equal(autoMayUseThreads('-', 1 << 30, 'ext'), false);
    assert.equal(autoMayUseThreads('big.bin', 1 << 30, 'bin'), false);
  });

  it('idleCores: the idle share of the processors time between two samples, in cores', () => {
    const cpu = (user: number, idle: number): CpuInfo => ({
      model: 'test',
      speed: 1,
      times: { user, nice: 0, sys: 0, idle, irq: 0 },
    });
    // two cores over 50 ms: both idle; one busy with another process; both three-quarters busy
    assert.equal(idleCores([cpu(0, 0), cpu(0, 0)], [cpu(0, 50), cpu(0, 50)]), 2);
    assert.equal(idleCores([cpu(0, 0), cpu(0, 0)], [cpu(50, 0), cpu(0, 50)]), 1);
    assert.equal(idleCores([cpu(0, 0), cpu(0, 0)], [cpu(40, 10), cpu(35, 15)]), 0.5);
    assert.ok(idleCores([cpu(0, 0), cpu(0, 0)], [cpu(10, 40), cpu(0, 50)]) >= FREE_IDLE_CORES);
    assert.ok(idleCores([cpu(0, 0), cpu(0, 0)], [cpu(50, 0), cpu(0, 50)]) < FREE_IDLE_CORES);
    // no time passed, or samples of different machines: no idle core
    assert.equal(idleCores([cpu(5, 5)], [cpu(5, 5)]), 0);
    assert.equal(idleCores([cpu(0, 0)], [cpu(0, 50), cpu(0, 50)]), 0);
    assert.equal(idleCores([], []), 0);
  });

  /**
   * A machine of `cores` processors, whose clock advances only by `sleep`: over each millisecond this process runs
   * `own` cores' worth (µs of run time per µs) and `idle` cores are idle; `slept` records the sleeps asked for.
   */
  function fakeProbe(cores: number, own: number, idle: number) {
    let ms = 0;
    const slept: number[] = [];
    const cpuAt = (): CpuInfo[] =>
      Array.from({ length: cores }, () => ({
        model: 'test',
        speed: 1,
        times: { user: (ms * (cores - idle)) / cores, nice: 0, sys: 0, idle: (ms * idle) / cores, irq: 0 },
      }));
    const probe: CoreProbe = {
      parallelism: () => cores,
      cpus: cpuAt,
      cpuUsage: (since) => {
        const user = ms * 1000 * own;
        return { user: user - (since?.user ?? 0), system: 0 };
      },
      nowUs: () => ms * 1000,
      sleep: async (n) => {
        slept.push(n);
        ms += n;
      },
    };
    return { probe, slept };
  }

  it('sampleCores: free after OWN_SAMPLE_MS ms when this process alone ran FREE_IDLE_CORES cores, else after the whole sample by idle + own', async () => {
    // this process on both cores: decided by its own use, without waiting out the rest of the sample
    const both = fakeProbe(2, 1.9, 0);
    assert.equal(await sampleCores(both.probe), true);
    assert.deepEqual(both.slept, [OWN_SAMPLE_MS]);
    // one core of its own, the other idle: free, once the whole sample has shown the idle core
    const idleOther = fakeProbe(2, 1, 1);
    assert.equal(await sampleCores(idleOther.probe), true);
    assert.deepEqual(idleOther.slept, [OWN_SAMPLE_MS, CORE_SAMPLE_MS - OWN_SAMPLE_MS]);
    // one core of its own, the other busy with another process: not free
    const busyOther = fakeProbe(2, 1, 0);
    assert.equal(await sampleCores(busyOther.probe), false);
    assert.deepEqual(busyOther.slept, [OWN_SAMPLE_MS, CORE_SAMPLE_MS - OWN_SAMPLE_MS]);
    // below the bound by its own use and without idle cores: its threads shared the processors with others
    assert.equal(await sampleCores(fakeProbe(2, FREE_IDLE_CORES - 0.1, 0).probe), false);
    // one processor: never free, and nothing sampled
    const one = fakeProbe(1, 1, 0);
    assert.equal(await sampleCores(one.probe), false);
    assert.deepEqual(one.slept, []);
  });
});
