/**
 * Object ids under lazy description of variables (src/model/symbols.ts: a variable is split into object and array
 * index only where that is used; an `alloc` first describes the variables named before it): in every reading mode
 * (one thread, one parser thread, split between parser threads, binary input) the objects get the ids of describing
 * each variable as it is first named — dense, in the order in which the trace first names each object, by a variable
 * or by an `alloc` — and `alloc`, rule 8, and a skip list's `object` directive see every variable of the object.
 * These tests use the compiled `dist/` (built by `npm test`), whose parser threads start without the TypeScript loader.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkFile } from '../../dist/check.js';
import { SkipList } from '../../dist/engine/skip.js';
import type { EventBatch } from '../../dist/model/events.js';
import { Symbols } from '../../dist/model/symbols.js';
import { readTracePipelined } from '../../dist/trace/pipeline.js';
import { readTrace } from '../../dist/trace/reader.js';
import { readTraceSplit } from '../../dist/trace/split.js';
import { formatEvent } from '../../dist/trace/writer.js';
import { feasibleTrace } from '../helpers/gen.js';
import { cli, tempFile, tempPath } from '../helpers/helpers.js';

/** Variables of the generated traces, with the object each names (docs: Symbols' naming rules). */
const OBJECT_OF: Record<string, string> = {
  'o1.f': 'o1',
  'a[2]': 'a',
  'pkg.C.f@12': '@12',
  x: 'x',
  '@7[3]': '@7',
  'o2.g': 'o2',
  'a[5]': 'a',
  'o1.g': 'o1',
};
/** Objects `alloc` names: some also named by variables (before or after the alloc), some only by allocs. */
const ALLOCATED = ['o2', 'b', 'a', 'c', '@12', 'x'];

/**
 * The objects of `text` in the order it first names them — by a variable of {@link OBJECT_OF} (in `r`, `w`, `ard`,
 * `awd` or a commit set) or by an `alloc` —, as describing each variable where it is first named gives their ids.
 */
function objectsInOrder(text: string): string[] {
  const seen: string[] = [];
  const see = (o: string) => {
    if (!seen.includes(o)) seen.push(o);
  };
  for (const line of text.split('\n')) {
    const m = /^[^|]*\|(\w+)\(([^)]*)\)/.exec(line);
    if (m === null) continue;
    const [, op, arg] = m;
    if (op === 'alloc') see(arg);
    else if (op === 'r' || op === 'w' || op === 'ard' || op === 'awd') see(OBJECT_OF[arg.split(',')[0]]);
    else if (op === 'commit') for (const v of arg.split(/[;,]/).filter((s) => s !== '')) see(OBJECT_OF[v]);
  }
  return seen;
}

type Mode = 'one thread' | 'parser thread' | 'split';

/**
 * Reads `path` in `mode` (small batches; split in segments of 256 bytes). @returns every event as text, the objects
 * by id once every variable is described, and each variable's object name.
 */
async function read(path: string, mode: Mode, format?: 'ext') {
  const symbols = new Symbols();
  const lines: string[] = [];
  const onBatch = (b: EventBatch) => {
    for (let i = 0; i < b.length; i++) lines.push(formatEvent(symbols, b, i));
  };
  if (mode === 'one thread') await readTrace(path, symbols, onBatch, { batchSize: 5 });
  else if (mode === 'parser thread') await readTracePipelined(path, symbols, onBatch, { batchSize: 5 }, 1);
  else
    await readTraceSplit(
      path,
      format ?? 'ext',
      symbols,
      onBatch,
      { batchSize: 5 },
      { workers: 2, segmentBytes: 256 },
    );
  const objects = Array.from({ length: symbols.objects.size }, (_, o) => symbols.objects.name(o));
  symbols.describeUpTo(symbols.variables.size);
  const all = Array.from({ length: symbols.objects.size }, (_, o) => symbols.objects.name(o));
  const objectOf = Array.from({ length: symbols.variables.size }, (_, x) => [
    symbols.variables.name(x),
    symbols.objects.name(symbols.objectOf(x)),
  ]);
  return { lines, objects, all, objectOf };
}

const MODES: Mode[] = ['one thread', 'parser thread', 'split'];

describe('object ids: those of describing every variable as it is named, in every reading mode', () => {
  it('random traces with allocs before and after their objects are named: text and binary, every mode', async () => {
    await fc.assert(
      fc.asyncProperty(
        feasibleTrace({ variables: Object.keys(OBJECT_OF), maxVars: 8, objects: ALLOCATED, maxCommands: 50 }),
        async (t) => {
          const text = tempFile('objects.trace', t.text);
          const bin = tempPath('objects.bin');
          assert.equal(cli(['convert', '--to', 'bin', text, '-o', bin]).status, 0);
          const expected = objectsInOrder(readFileSync(text, 'utf8'));
          const reference = await read(text, 'one thread');
          assert.deepEqual(reference.all, expected);
          for (const o of reference.objectOf) assert.equal(o[1], OBJECT_OF[o[0]], o[0]);
          for (const [path, modes] of [
            [text, MODES],
            [bin, ['one thread', 'parser thread'] as Mode[]],
          ] as const)
            for (const mode of modes) {
              const r = await read(path, mode);
              assert.deepEqual(r.lines, reference.lines, `${path} ${mode}`);
              assert.deepEqual(r.all, expected, `${path} ${mode}`);
              assert.deepEqual(r.objectOf, reference.objectOf, `${path} ${mode}`);
              // what was interned before describing is a prefix of that order
              assert.deepEqual(r.objects, expected.slice(0, r.objects.length), `${path} ${mode}`);
            }
        },
      ),
      { numRuns: 20 },
    );
  });

  it('a binary trace defining an object after its last event: the same objects read in a parser thread', async () => {
    // 5 events: the last batch (of 5, `read`'s batch size) is full before the definition is read
    const text = tempFile(
      'trailing.trace',
      'T0|w(o1.f)|1\nT0|alloc(b)|2\nT0|w(a[2])|3\nT0|r(a[2])|4\nT0|r(x)|5\n',
    );
    const bin = tempPath('trailing.bin');
    assert.equal(cli(['convert', '--to', 'bin', text, '-o', bin]).status, 0);
    // a definition record of namespace 4 (object, docs/FORMATS.md): tag 0x84, length 1, the name `c`
    const trailing = tempFile(
      'trailing-def.bin',
      Buffer.concat([readFileSync(bin), Buffer.from([0x84, 1, 0x63])]),
    );
    for (const mode of MODES.slice(0, 2))
      assert.deepEqual((await read(trailing, mode)).all, ['o1', 'b', 'a', 'x', 'c'], mode);
  });

  it('a trace without alloc: reading in one or in a parser thread interns no object', async () => {
    const path = tempFile('no-alloc.trace', 'T0|w(o1.f)|1\nT0|r(a[2])|2\nT0|w(x)|3\n');
    for (const mode of ['one thread', 'parser thread'] as Mode[]) {
      const r = await read(path, mode);
      assert.deepEqual(r.objects, [], mode);
      assert.deepEqual(r.all, ['o1', 'a', 'x'], mode);
    }
  });
});

/**
 * The racy variables of each detector checking `path` alone (so that no other detector describes variables for it),
 * read in `pipeline` mode (with `skip`, if given).
 */
async function racy(path: string, pipeline: 'off' | 'on' | 'split', skip?: SkipList) {
  const verdicts: string[][] = [];
  for (const detector of ['goldilocks', 'fasttrack', 'djit', 'eraser', 'eager']) {
    const r = await checkFile(path, {
      detectors: [detector],
      pipeline,
      skip,
      split: { workers: 2, segmentBytes: 64 },
    });
    verdicts.push([...r.results[0].races.firstRace.keys()].map((x) => r.symbols.variables.name(x)).sort());
  }
  return verdicts;
}

describe('alloc and skip lists see every variable of an object, in every reading mode', () => {
  // T0 writes o.f and a[1]; T1 allocates o (rule 8: o.f's lockset empties) and writes both: a[1] races, o.f does not.
  // p.g is named after p's alloc, q.h before and after (its later write by T1 races with T0's); o.h after o's first
  // alloc and before its second, which resets it.
  const text = [
    'T0|w(o.f)|1',
    'T0|w(a[1])|2',
    'T0|w(q.h)|3',
    'T1|alloc(p)|4',
    'T1|alloc(o)|5',
    'T1|w(o.f)|6',
    'T1|w(a[1])|7',
    'T1|w(p.g)|8',
    'T1|w(q.h)|9',
    'T1|alloc(q)|10',
    'T0|w(o.h)|11',
    'T1|alloc(o)|12',
    'T1|w(o.h)|13',
    '',
  ].join('\n');

  it('alloc(o) resets the variables of o named before it (every detector, every mode)', async () => {
    const path = tempFile('alloc-reset.trace', text);
    const one = await racy(path, 'off');
    for (const [d, v] of one.entries()) {
      assert.ok(!v.includes('o.f'), `detector ${d}: ${v}`);
      // the precise ones (all but eraser, which may miss a race: its object and sub-block states)
      if (d !== 3) assert.deepEqual(v, ['a[1]', 'q.h'], `detector ${d}`);
    }
    for (const mode of ['on', 'split'] as const) assert.deepEqual(await racy(path, mode), one, mode);
  });

  it("a skip list's object directive skips the variables of that object (every detector, every mode)", async () => {
    const path = tempFile('skip-object.trace', text);
    const skip = SkipList.parse('object a\nobject q\n', 'skip.txt');
    const one = await racy(path, 'off', skip);
    for (const [d, v] of one.entries()) {
      assert.ok(!v.includes('a[1]') && !v.includes('q.h'), `detector ${d}: ${v}`);
      if (d !== 3) assert.deepEqual(v, [], `detector ${d}`);
    }
    for (const mode of ['on', 'split'] as const) assert.deepEqual(await racy(path, mode, skip), one, mode);
  });
});
