import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { generate } from '../../bench/generate.js';
import { checkFile, verdicts } from '../../src/check.js';
import { TraceError } from '../../src/model/errors.js';
import { ATOMIC_DATA_READ, COMMIT, ENTER, READ, WRITE } from '../../src/model/events.js';
import { Symbols } from '../../src/model/symbols.js';
import { TAG_DEFINE, TAG_OPTIONAL } from '../../src/trace/binary.js';
import { BinaryWriter } from '../../src/trace/binary-writer.js';
import { type Format, readTraceBuffer } from '../../src/trace/reader.js';
import { BINARY_MAGIC } from '../../src/trace/reading.js';
import { formatEvent } from '../../src/trace/writer.js';
import { feasibleTrace } from '../helpers/gen.js';
import { CLI, chunked, cli, expectTraceError, ROOT, tempFile, tempPath } from '../helpers/helpers.js';

/** Writes the events of a trace (any format) with BinaryWriter. @returns the binary file's bytes. */
function toBinary(input: Buffer): Buffer {
  const symbols = new Symbols();
  const path = tempPath('w.bin');
  const fd = openSync(path, 'w');
  const writer = new BinaryWriter(symbols, fd);
  readTraceBuffer(input, 'in', symbols, (b) => writer.write(b));
  writer.end();
  closeSync(fd);
  const out = readFileSync(path);
  assert.equal(writer.written, out.length);
  return out;
}

interface Events {
  format: string;
  lines: string[];
  /** `line` of each event. */
  numbers: number[];
}

/** Reads a trace and renders its events in the extended format. */
function events(input: Buffer, format: Format = 'auto', name = 'x.bin'): Events {
  const symbols = new Symbols();
  const out: Events = { format: '', lines: [], numbers: [] };
  const r = readTraceBuffer(
    input,
    name,
    symbols,
    (b) => {
      for (let i = 0; i < b.length; i++) {
        out.lines.push(formatEvent(symbols, b, i) ?? '');
        out.numbers.push(b.line[i]);
      }
    },
    { format },
  );
  out.format = r.format;
  return out;
}

/**
 * Every kind of event; values; markers with and without names; commits with empty sides; empty, non-ASCII and
 * bracketed names; a name shared by two namespaces (`l` is a lock and a variable); the same location twice.
 */
const ALL_KINDS = [
  'main|alloc(obj)|Main.java:10',
  'main|w(obj.count)=0|Main.java:11',
  'main|r(obj.count)=0|',
  'main|w(grüße.ß)=ünï|Ω:1',
  'main|vw(flag)|Main.java:12',
  'main|rmw(flag)|Main.java:12',
  'main|acq(l)|sync',
  'main|wait(l)|sync',
  'main|notify(l)|sync',
  'main|w(l)|sync',
  'main|rel(l)|sync',
  'main|fork(worker-1)|Main.java:13',
  'worker-1|vr(flag)|W.java:1',
  'worker-1|ard(obj.count,atomic@sab#1+0:4)|W.java:2',
  'worker-1|ar(atomic@sab#1+0:4)|W.java:2',
  'worker-1|awd(obj.count,flag)|W.java:3',
  'worker-1|armw(flag)|W.java:3',
  'worker-1|aw(flag)|W.java:3',
  'worker-1|commit(obj.count,arr[3];@7[2])|atomic',
  'worker-1|commit(;x)|atomic',
  'worker-1|commit(x;)|atomic',
  'worker-1|commit(;)|atomic',
  'worker-1|enter(run())|',
  'worker-1|exit(run())|',
  'worker-1|begin|',
  'worker-1|begin(b)|',
  'worker-1|end|',
  'worker-1|dummy(d)|',
  'worker-1|dummy|',
  'worker-1|w(arr[3])|',
  'main|join(worker-1)|Main.java:14',
  'main|r(arr[3])|Main.java:15',
];

const HEADER = [...BINARY_MAGIC, 1];
/** A definition record of namespace `ns` (0 thread, 1 variable, ... 5 location, ...). */
function def(ns: number, name: string): number[] {
  const b = Buffer.from(name, 'utf8');
  return [TAG_DEFINE | ns, b.length, ...b];
}
/** Header, then thread T0 (id 0), variable x (id 0), location L (id 0). */
const PRELUDE = [...HEADER, ...def(0, 'T0'), ...def(1, 'x'), ...def(5, 'L')];

function syntaxError(bytes: number[] | Buffer, format: Format = 'auto'): TraceError {
  const e = expectTraceError(() => events(Buffer.from(bytes), format, 'bad.bin'));
  assert.equal(e.kind, 'syntax');
  return e;
}

describe('binary format: round trips', () => {
  it('keeps every kind of event, value, marker and name', () => {
    const text = Buffer.from(`${ALL_KINDS.join('\n')}\n`);
    const bin = toBinary(text);
    assert.deepEqual(bin.subarray(0, 8), Buffer.from(HEADER));
    const back = events(bin);
    assert.equal(back.format, 'bin');
    assert.deepEqual(back.lines, ALL_KINDS);
    assert.deepEqual(
      back.numbers,
      ALL_KINDS.map((_, i) => i + 1),
    );
    // bin -> bin is byte-identical
    assert.deepEqual(toBinary(bin), bin);
    // the optional-field bit is set exactly on r/w with values and named markers
    const kinds = new Set([...bin.subarray(8)].filter((b) => b < TAG_DEFINE).map((b) => b & ~TAG_OPTIONAL));
    assert.ok(kinds.has(COMMIT) && kinds.has(ENTER) && kinds.has(READ) && kinds.has(WRITE));
  });

  it('random feasible traces (test/helpers/gen.ts): text -> bin -> text keeps every event', () => {
    fc.assert(
      fc.property(feasibleTrace({ maxVars: 4, maxCommands: 60 }), (t) => {
        const text = Buffer.from(t.text);
        const back = events(toBinary(text));
        assert.equal(back.lines.length, t.events);
        assert.deepEqual(back.lines, events(text).lines);
      }),
      { numRuns: 200 },
    );
  });

  it('examples/*.trace: convert to bin and back reproduces `convert --to ext`, verdicts identical', async () => {
    const dir = join(ROOT, 'examples');
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.trace'))) {
      const src = join(dir, f);
      const bin = tempPath(`${f}.bin`);
      assert.equal(cli(['convert', '--to', 'bin', src, '-o', bin]).status, 0);
      const ext = cli(['convert', src]);
      const back = cli(['convert', bin]);
      assert.equal(back.status, 0, back.stderr);
      assert.equal(back.stdout, ext.stdout, f);
      const detectors = ['goldilocks', 'fasttrack', 'eraser'];
      const a = await checkFile(src, { detectors });
      const b = await checkFile(bin, { detectors });
      assert.equal(b.input.format, 'bin');
      assert.equal(b.engine.events, a.engine.events);
      for (let i = 0; i < detectors.length; i++)
        assert.deepEqual(verdicts(b, i), verdicts(a, i), `${f} ${i}`);
    }
  });

  it('a generated trace (bench/generate.ts): same events, verdicts and event indexes, and 2.5× smaller', async () => {
    const text = tempPath('gen.trace');
    generate({
      events: 60_000,
      threads: 4,
      vars: 3000,
      locks: 20,
      volatiles: 4,
      seed: 7,
      racy: 0.01,
      out: text,
    });
    const bin = tempFile('gen.bin', toBinary(readFileSync(text)));
    assert.deepEqual(events(readFileSync(bin)).lines, events(readFileSync(text)).lines);
    const a = await checkFile(text, { detectors: ['goldilocks', 'djit'] });
    const b = await checkFile(bin, { detectors: ['goldilocks', 'djit'] });
    assert.ok(verdicts(a).size > 0, 'the trace should have races');
    assert.deepEqual(verdicts(b), verdicts(a));
    assert.deepEqual(verdicts(b, 1), verdicts(a, 1));
    assert.equal(b.results[0].races.racyEvents, a.results[0].races.racyEvents);
    assert.ok(readFileSync(bin).length * 2.5 < readFileSync(text).length);
  });

  it('reads binary inside gzip, and through stdin', async () => {
    const text = 'T0|fork(T1)|M.java:1\nT0|w(x)|M.java:2\nT1|w(x)|W.java:3\n';
    const bin = toBinary(Buffer.from(text));
    const r = await checkFile(tempFile('r.bin.gz', gzipSync(bin)));
    assert.equal(r.input.gzip, true);
    assert.equal(r.input.format, 'bin');
    assert.deepEqual(verdicts(r), new Map([['x', 2]]));
    const stdin = cli(['convert', '-'], bin);
    assert.equal(stdin.stdout, text);
  });

  it('convert writes every byte to a pipe read slowly, --to bin as to -o; --format bin is accepted', () => {
    const text = `${ALL_KINDS.join('\n')}\n`.repeat(2000);
    const src = tempFile('p.trace', text);
    const out = tempPath('p.bin');
    assert.equal(cli(['convert', '--to', 'bin', src, '-o', out]).status, 0);
    const bin = readFileSync(out);
    assert.ok(bin.length > 1 << 17, 'more than a pipe holds');
    assert.equal(cli(['check', '--format', 'bin', '--lenient', out]).status, 0);
    // the reader sleeps first: the pipe fills up and the writer meets EAGAIN
    const slow = (to: string) =>
      spawnSync(
        'sh',
        ['-c', `"${process.execPath}" "${CLI}" convert --to ${to} "${src}" | (sleep 0.5; cat)`],
        {
          maxBuffer: 1 << 26,
        },
      ).stdout;
    assert.deepEqual(slow('bin'), bin);
    assert.equal(slow('ext').toString(), text);
  });

  it('a name longer than the 1 MiB write and read chunks', async () => {
    const loc = 'L'.repeat(3 << 20);
    const src = tempFile('long.trace', `T0|w(x)|${loc}\nT0|r(x)|1\n`);
    const bin = tempPath('long.bin');
    assert.equal(cli(['convert', '--to', 'bin', src, '-o', bin]).status, 0);
    const r = await checkFile(bin);
    assert.equal(r.engine.events, 2);
    assert.equal(r.symbols.locations.name(1), loc);
  });

  const SHARED = join(ROOT, '..', 'shared', 'traces');
  const real = [join(SHARED, 'real', 'bufwriter.std'), join(SHARED, 'roadrunner', 'series-t3.trace.gz')];
  const present = real.every((f) => existsSync(f));
  if (!present) console.log(`# skipping the binary round trip of real traces: ${real.join(', ')} absent`);
  it('real traces (../shared/traces): same events and verdicts', {
    skip: !present && 'needs ../shared/traces',
  }, async () => {
    for (const src of real) {
      const bin = tempPath('real.bin');
      assert.equal(cli(['convert', '--to', 'bin', src, '-o', bin]).status, 0);
      const ext = cli(['convert', src]);
      assert.equal(cli(['convert', bin]).stdout, ext.stdout);
      const a = await checkFile(src, { detectors: ['goldilocks', 'fasttrack'] });
      const b = await checkFile(bin, { detectors: ['goldilocks', 'fasttrack'] });
      assert.deepEqual(verdicts(b), verdicts(a));
      assert.deepEqual(verdicts(b, 1), verdicts(a, 1));
    }
  });
});

describe('binary format: streaming', () => {
  const text = tempPath('stream.trace');
  generate({ events: 3000, threads: 3, vars: 500, locks: 5, volatiles: 2, seed: 3, out: text });
  const bin = toBinary(Buffer.from(`${ALL_KINDS.join('\n')}\n${readFileSync(text, 'utf8')}`));
  const expected = events(bin).lines;

  it('records split across chunks of 1 byte are read once whole', () => {
    const r = chunked(bin, () => 1);
    assert.deepEqual(r.lines, expected);
    // only a partial record is held back between chunks, never more
    assert.ok(r.longestRest < 40, `rest of ${r.longestRest} bytes`);
  });

  it('chunks of random sizes', () => {
    let seed = 12345;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    for (let run = 0; run < 20; run++) {
      const r = chunked(bin, () => 1 + (random() % 300));
      assert.deepEqual(r.lines, expected);
    }
  });
});

describe('binary format: errors name the file, byte, record, expectation and what was found', () => {
  it('bad magic or version', () => {
    let e = syntaxError(Buffer.from('T0|w(x)|1\n'), 'bin');
    assert.match(
      e.message,
      /^bad\.bin: byte 0 \(record 0\): syntax error: expected the magic bytes "GLKTRC\\0"/,
    );
    assert.match(e.message, /found "T0\|w\(x\)\|1\\n"/);
    e = syntaxError([...BINARY_MAGIC, 2]);
    assert.equal(e.offset, 7);
    assert.match(e.message, /expected format version 1, found version 2/);
    e = syntaxError([...BINARY_MAGIC]);
    assert.match(e.message, /byte 7 \(record 0\).*expected the rest of the header.*truncated/);
  });

  it('an unknown kind or tag', () => {
    let e = syntaxError([...PRELUDE, 0x3f, 0, 0]);
    assert.equal(e.offset, PRELUDE.length);
    assert.equal(e.line, 4);
    assert.match(
      e.message,
      /bad\.bin: byte 18 \(record 4\): syntax error: expected a record tag .* found 0x3f/,
    );
    assert.match(e.message, /\n {4}3f 00 00\n {4}\^$/);
    e = syntaxError([...PRELUDE, 0x88]);
    assert.match(e.message, /namespaces are thread, variable.* found 0x88/);
    e = syntaxError([...PRELUDE, 0x40 | 2, 0, 0, 0]);
    assert.match(e.message, /expected tag 0x02 \('acq' has no optional field\), found 0x42/);
    e = syntaxError([...PRELUDE, ENTER, 0, 0]);
    assert.match(e.message, /expected tag 0x4d \('enter' carries a method name\), found 0x0d/);
    e = syntaxError([...PRELUDE, ATOMIC_DATA_READ, 0, 0, 0]);
    assert.match(e.message, /expected tag 0x55 \('ard' carries an atomic location\), found 0x15/);
    e = syntaxError([...PRELUDE, 0x17, 0, 0]);
    assert.match(e.message, /expected a record tag \(an event kind 0x00-0x16,/);
  });

  it('an id used before its definition', () => {
    let e = syntaxError([...PRELUDE, WRITE, 0, 0, 1]);
    assert.equal(e.offset, PRELUDE.length + 3);
    assert.match(e.message, /expected a variable id defined by an earlier record \(0\.\.0\), found 1/);
    assert.match(e.message, /\n {4}01 00 00 01\n {4} {9}\^$/);
    // the same with more bytes after the record (the parser's fast path)
    e = syntaxError([...PRELUDE, WRITE, 0, 0, 1, ...new Array(30).fill(0)]);
    assert.equal(e.offset, PRELUDE.length + 3);
    assert.match(e.message, /expected a variable id defined by an earlier record \(0\.\.0\), found 1/);
    assert.match(e.message, /\n {4}01 00 00 01 00 00 .*\n {4} {9}\^$/);
    e = syntaxError([...PRELUDE, 2, 0, 0, 0]);
    assert.match(
      e.message,
      /expected a lock id defined by an earlier record \(none is defined yet\), found 0/,
    );
    e = syntaxError([...PRELUDE, COMMIT, 0, 0, 1, 0, 1, 3]);
    assert.match(e.message, /expected a variable id .* found 3/);
  });

  it('varints of 5 bytes and non-canonical ones decode as their canonical form, amid records of the fast path', () => {
    // READ by T0 at L of x: thread, location and target as 0 in 1 byte, in 2 (0x80 0x00) and in 5 bytes
    const plain = [READ, 0, 0, 0];
    const long = [READ, 0x80, 0x80, 0x80, 0x80, 0x00, 0x80, 0x00, 0x80, 0x80, 0x80, 0x00];
    const rest = Array.from({ length: 8 }, () => plain).flat();
    const canonical = events(Buffer.from([...PRELUDE, ...plain, ...plain, ...rest]));
    const varied = events(Buffer.from([...PRELUDE, ...long, ...plain, ...rest]));
    assert.deepEqual(varied, canonical);
    assert.equal(canonical.lines.length, 10);
  });
  it('malformed varints, names and commit sets', () => {
    let e = syntaxError([...PRELUDE, WRITE, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f]);
    assert.match(e.message, /expected a varint below 2\^31 .* found 0x0f/);
    e = syntaxError([...HEADER, TAG_DEFINE, 0x80, 0x80, 0x80, 0x10]);
    assert.match(e.message, /expected a name of at most 16777216 bytes, found a length of 33554432/);
    e = syntaxError([...PRELUDE, COMMIT, 0, 0, 2, 0, 0, 0]);
    assert.match(e.message, /at most the 1 variables defined so far, found a count of 2/);
    e = syntaxError([...PRELUDE, ...def(1, 'y'), COMMIT, 0, 0, 2, 1, 1, 0]);
    assert.match(e.message, /expected distinct variables in a commit set, found y twice/);
  });

  it('a file truncated inside a record, at every cut', () => {
    const bin = toBinary(Buffer.from('T0|w(x)=1|L\nT0|commit(x,y;z)|L\n'));
    const whole = events(bin).lines.length;
    // records: definitions of T0, L, x, 1, y, z and the two events; a cut at a record's start is a shorter trace
    const records = 8;
    let errors = 0;
    for (let cut = 8; cut < bin.length; cut++) {
      const part = bin.subarray(0, cut);
      try {
        events(part);
      } catch (e) {
        assert.ok(e instanceof TraceError, String(e));
        assert.match(
          e.message,
          /expected the rest of the record \(\d+ of its bytes are present\), found the end/,
        );
        assert.equal(e.offset, cut);
        errors++;
        continue;
      }
      assert.ok(events(part).lines.length < whole);
    }
    assert.equal(errors, bin.length - 8 - records);
  });

  it('the CLI exits with code 2 and the message, without a stack', () => {
    const r = cli(['check', tempFile('bad.bin', Buffer.from([...PRELUDE, 0x3f]))]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /bad\.bin: byte 18 \(record 4\): syntax error: expected a record tag/);
    assert.doesNotMatch(r.stderr, /at .*\.js/);
  });
});
