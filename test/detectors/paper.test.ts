import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { verdicts } from '../../src/check.js';
import { checkText } from '../../src/check-text.js';
import { EagerDetector } from '../../src/detectors/eager/eager.js';
import { GoldilocksDetector } from '../../src/detectors/goldilocks/goldilocks.js';
import { Engine } from '../../src/engine/engine.js';
import { EventBatch } from '../../src/model/events.js';
import { Symbols } from '../../src/model/symbols.js';
import { RaceCollector } from '../../src/report/collector.js';
import { readTraceBuffer } from '../../src/trace/reader.js';

const PRECISE = ['goldilocks', 'eager', 'djit', 'fasttrack'];
const example = (name: string) => readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8');

/** Racy variable names per detector. */
function racy(text: string, detectors = [...PRECISE, 'eraser']): Record<string, string[]> {
  const r = checkText(text, { detectors });
  return Object.fromEntries(r.results.map((d, i) => [d.detector.name, [...verdicts(r, i).keys()].sort()]));
}

describe('the examples of Goldilocks (PLDI 2007)', () => {
  it('Figure 1: the precise detectors find the race on m_writer between close() and run() line 10', () => {
    const text = example('figure1-ftpserver.trace');
    const r = checkText(text, { detectors: PRECISE });
    for (let i = 0; i < PRECISE.length; i++) {
      const v = verdicts(r, i);
      // first race: close() nulls m_writer (event 16) unordered with run()'s earlier use at line 10 (event 9)
      assert.equal(v.get('conn.m_writer'), 16, PRECISE[i]);
    }
    // goldilocks goes on checking: run()'s next use at line 10 (event 18) races with close()'s write
    const g = [...r.results[0].races.groups.values()].find(
      (x) => r.symbols.variables.name(x.race.variable) === 'conn.m_writer',
    );
    assert.equal(g?.count, 2);
    const b = checkText(text, { detectors: ['goldilocks'] });
    assert.equal(b.results[0].races.racyEvents, 5);
  });

  it('Example 2 (Figure 2): no race for the precise detectors; Eraser warns at tmp3.data = 3', () => {
    const v = racy(example('example2-ownership.trace'));
    for (const d of PRECISE) assert.deepEqual(v[d], [], d);
    assert.deepEqual(v.eraser, ['o.data']);
  });

  it('Example 2: LS(o.data) evolves as in Figure 6, in the eager oracle and lazily in goldilocks', () => {
    const text = example('example2-ownership.trace');
    const expected: string[][] = [
      [], // alloc
      ['T1'], // tmp1.data = 0
      ['T1'], // acq(ma)
      ['T1'], // a = tmp1
      ['T1', 'ma'], // rel(ma)
      ['T1', 'T2', 'ma'], // T2 acq(ma)
      ['T1', 'T2', 'ma'],
      ['T1', 'T2', 'ma'], // rel(ma)
      ['T1', 'T2', 'ma'], // acq(mb)
      ['T1', 'T2', 'ma'],
      ['T1', 'T2', 'ma', 'mb'], // rel(mb)
      ['T1', 'T2', 'T3', 'ma', 'mb'], // T3 acq(mb)
      ['T1', 'T2', 'T3', 'ma', 'mb'],
      ['T3'], // b.data = 2
      ['T3'],
      ['T3', 'mb'], // rel(mb)
      ['T3'], // tmp3.data = 3
    ];
    for (const kind of ['eager', 'goldilocks'] as const) {
      const symbols = new Symbols();
      const sink = new RaceCollector();
      const engine = new Engine(symbols, [], { file: 'ex2' }, () => '');
      const det =
        kind === 'eager'
          ? new EagerDetector({ symbols, locks: engine.locks, sink })
          : new GoldilocksDetector({ symbols, locks: engine.locks, sink });
      engine.detectors.push(det);
      const seen: string[][] = [];
      readTraceBuffer(Buffer.from(text), 'ex2', symbols, (batch: EventBatch) => {
        // replay one event at a time to observe the lockset after each
        for (let i = 0; i < batch.length; i++) {
          const one = new EventBatch(4);
          one.reset(batch.firstIndex + i);
          one.push(batch.kind[i], batch.thread[i], batch.target[i], batch.loc[i], -1, batch.line[i]);
          engine.process(one);
          const x = symbols.variables.lookup('o.data');
          seen.push(x < 0 ? [] : det.writeLockset(x).sort());
        }
      });
      assert.deepEqual(seen, expected, kind);
      assert.equal(sink.firstRace.size, 0);
    }
  });

  it('Example 3 (Figure 3): no race thanks to the transactions (commit → commit on shared variables)', () => {
    const v = racy(example('example3-transactions.trace'));
    for (const d of PRECISE) assert.deepEqual(v[d], [], d);
  });

  it('Example 3 without the transaction edges (separate variables): the race on o.data appears', () => {
    const text = example('example3-transactions.trace').replace(
      'commit(head,o.nxt;head)',
      'commit(head2;head2)',
    );
    const v = racy(text, PRECISE);
    for (const d of PRECISE) assert.deepEqual(v[d], ['o.data'], d);
  });

  it('Example 4 (Figure 4): a race on checking.bal between the transaction and the synchronized method', () => {
    const v = racy(example('example4-account.trace'));
    for (const d of PRECISE) assert.deepEqual(v[d], ['checking.bal'], d);
  });

  it('two transactional accesses never race with each other', () => {
    const v = racy('T1|commit(;x)|\nT2|commit(x;x)|\nT3|commit(x;)|\n', PRECISE);
    for (const d of PRECISE) assert.deepEqual(v[d], [], d);
  });

  it('classic Eraser false alarms (fork/join, volatile flag, lock change): Eraser warns, Goldilocks does not', () => {
    const v = racy(example('eraser-false-alarms.trace'));
    for (const d of PRECISE) assert.deepEqual(v[d], [], d);
    assert.ok(v.eraser.length >= 2, `eraser: ${v.eraser}`);
  });

  it('alloc resets a variable: accesses to a new object do not race with the old one (rule 8)', () => {
    const base = 'T0|fork(T1)|\nT0|w(o.f)|\nT1|alloc(o)|\nT1|w(o.f)|\n';
    for (const d of PRECISE) assert.deepEqual(racy(base, [d])[d], [], d);
    const noAlloc = 'T0|fork(T1)|\nT0|w(o.f)|\nT1|w(o.f)|\n';
    for (const d of PRECISE) assert.deepEqual(racy(noAlloc, [d])[d], ['o.f'], d);
  });
});
