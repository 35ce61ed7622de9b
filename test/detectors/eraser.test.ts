import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Race } from '../../src/detectors/detector.js';
import { EraserDetector } from '../../src/detectors/eraser/eraser.js';
import { Engine } from '../../src/engine/engine.js';
import { ACQUIRE, ALLOC, EventBatch, FORK, JOIN, READ, RELEASE, WRITE } from '../../src/model/events.js';
import { Symbols } from '../../src/model/symbols.js';

const KINDS: Record<string, number> = {
  r: READ,
  w: WRITE,
  acq: ACQUIRE,
  rel: RELEASE,
  fork: FORK,
  join: JOIN,
  alloc: ALLOC,
};

interface Run {
  races: Race[];
  det: EraserDetector;
  symbols: Symbols;
  /** Race variables by name. */
  vars: string[];
}

/**
 * Runs the detector over a tiny trace, one event per line: `T0 w o.f`, `T0 acq L`, `T0 fork T1`,
 * `T0 alloc o`, `T0 commit r=o.f,o.g w=o.h`. All names are interned before the engine runs.
 */
function run(trace: string, options: { blockSize?: number } = {}): Run {
  const symbols = new Symbols();
  const lines = trace
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const batch = new EventBatch();
  const ids = (list: string | undefined) =>
    list === undefined || list === '' ? [] : list.split(',').map((v) => symbols.variableNamed(v));
  for (let i = 0; i < lines.length; i++) {
    const [thread, op, ...args] = lines[i].split(/\s+/);
    const t = symbols.threads.intern(thread);
    if (op === 'commit') {
      const r = args.find((a) => a.startsWith('r='))?.slice(2);
      const w = args.find((a) => a.startsWith('w='))?.slice(2);
      batch.pushCommit(t, ids(r), ids(w), 0, i + 1);
      continue;
    }
    const kind = KINDS[op];
    assert.ok(kind !== undefined, `unknown op ${op}`);
    const name = args[0];
    let target: number;
    if (kind === READ || kind === WRITE) target = symbols.variableNamed(name);
    else if (kind === ACQUIRE || kind === RELEASE) target = symbols.locks.intern(name);
    else if (kind === FORK || kind === JOIN) target = symbols.threads.intern(name);
    else {
      const b = Buffer.from(name, 'utf8');
      target = symbols.allocObject(b, 0, b.length); // as the parsers intern an alloc's object
    }
    batch.push(kind, t, target, 0, -1, i + 1);
  }
  const races: Race[] = [];
  const engine = new Engine(symbols, [], { file: 'test' }, () => '');
  const det = new EraserDetector(
    { symbols, locks: engine.locks, sink: { race: (r) => races.push(r) } },
    options,
  );
  engine.detectors.push(det);
  engine.process(batch);
  return { races, det, symbols, vars: races.map((r) => symbols.variables.name(r.variable)) };
}

describe('eraser: objects and fields', () => {
  test('a thread-local object is never reported', () => {
    const { races, det } = run(`
      T0 w o.f
      T0 r o.f
      T0 w o.g
      T0 w o.f
      T1 w p.f
      T1 r p.f
      T1 w p.f
    `);
    assert.equal(races.length, 0);
    assert.equal(det.stats().objectsEscaped, 0);
    assert.equal(det.stats().checks, 0);
  });

  test('unprotected write/write by two threads after escape is reported once', () => {
    const { races, vars, det } = run(`
      T0 w o.f
      T1 w o.f
      T0 w o.f
      T1 w o.f
    `);
    assert.equal(races.length, 1);
    assert.deepEqual(vars, ['o.f']);
    const r = races[0];
    assert.deepEqual(r.current, { index: 1, thread: 1, write: true, xact: false, atomic: false, loc: 0 });
    assert.deepEqual(r.previous, { index: 0, thread: 0, write: true, xact: false, atomic: false, loc: 0 });
    assert.deepEqual(r.lockset, []);
    assert.match(r.detail, /Eraser/);
    assert.equal(det.stats().objectsEscaped, 1);
    assert.equal(det.stats().conflicts, 1);
  });

  test('consistently locked accesses are not reported', () => {
    const { races } = run(`
      T0 acq L
      T0 w o.f
      T0 rel L
      T1 acq M
      T1 acq L
      T1 w o.f
      T1 rel L
      T1 rel M
      T0 acq L
      T0 r o.f
      T0 w o.f
      T0 rel L
    `);
    assert.equal(races.length, 0);
  });

  test('read-only sharing after unlocked initialization is not reported', () => {
    const { races } = run(`
      T0 w o.f
      T1 r o.f
      T2 r o.f
      T0 r o.f
    `);
    assert.equal(races.length, 0);
  });

  test('a write after unlocked shared reads is reported, against the other thread', () => {
    const { races, vars } = run(`
      T0 w o.f
      T0 w o.g
      T1 r o.g
      T1 r o.f
      T0 w o.f
    `);
    assert.deepEqual(vars, ['o.f']);
    assert.equal(races[0].current.index, 4);
    assert.deepEqual(races[0].previous, {
      index: 3,
      thread: 1,
      write: false,
      xact: false,
      atomic: false,
      loc: 0,
    });
  });

  test('lock change (L1 then L2) is reported: the classic Eraser false alarm', () => {
    const { races, vars } = run(`
      T0 acq L1
      T0 w o.f
      T0 rel L1
      T1 acq L2
      T1 w o.f
      T1 rel L2
      T0 acq L1
      T0 w o.f
      T0 rel L1
    `);
    assert.deepEqual(vars, ['o.f']);
    assert.equal(races[0].current.index, 7);
    assert.equal(races[0].previous.thread, 1);
    assert.deepEqual(races[0].lockset, ['L1']);
  });

  test('a fork/join-ordered hand-off is reported (false alarm by design)', () => {
    const { races, vars } = run(`
      T0 w o.f
      T0 fork T1
      T1 w o.f
      T0 join T1
      T0 w o.f
    `);
    assert.deepEqual(vars, ['o.f']);
    assert.equal(races[0].current.thread, 1);
    assert.equal(races[0].previous.index, 0);
  });

  test('a variable in conflict is not reported again', () => {
    const { races } = run(`
      T0 w o.f
      T1 w o.f
      T0 w o.f
      T1 r o.f
      T2 w o.f
    `);
    assert.equal(races.length, 1);
  });
});

describe('eraser: commits hold TL', () => {
  test('accesses in commits only are protected by TL', () => {
    const { races } = run(`
      T0 commit w=o.f
      T1 commit r=o.f w=o.f
      T0 commit r=o.f
    `);
    assert.equal(races.length, 0);
  });

  test('a commit and an unlocked access race; the report lists TL', () => {
    const { races, vars } = run(`
      T0 w o.f
      T1 acq L
      T1 commit w=o.f
      T1 rel L
      T0 w o.f
      T1 acq L
      T1 commit w=o.g
      T1 rel L
      T0 w o.g
    `);
    assert.deepEqual(vars, ['o.f', 'o.g']);
    assert.deepEqual(races[0].lockset, []);
    assert.equal(races[0].previous.xact, true);
    // o.g: first access after escape is T1's commit (C = {L, TL}); T0's unlocked write empties it.
    assert.equal(races[1].current.index, 8);
  });

  test('a conflict inside a commit carries TL and the held locks in its lockset', () => {
    const { races } = run(`
      T0 w o.f
      T1 acq L
      T1 w o.f
      T1 rel L
      T0 acq M
      T0 commit w=o.f
      T0 rel M
    `);
    assert.equal(races.length, 1);
    assert.deepEqual(races[0].lockset, ['M', 'TL']);
    assert.equal(races[0].current.xact, true);
  });
});

describe('eraser: array sub-blocks', () => {
  const init = Array.from({ length: 16 }, (_, i) => `T0 w a[${i}]`).join('\n');

  test('two threads writing disjoint sub-blocks without locks are not reported', () => {
    const t1 = Array.from({ length: 8 }, (_, i) => `T1 w a[${i}]\nT1 r a[${i}]`).join('\n');
    const t2 = Array.from({ length: 8 }, (_, i) => `T2 w a[${8 + i}]\nT2 r a[${8 + i}]`).join('\n');
    const { races, det } = run(`
      T0 alloc a
      ${init}
      T0 fork T1
      T0 fork T2
      ${t1}
      ${t2}
      ${t1}
    `);
    assert.equal(races.length, 0);
    assert.equal(det.stats().objectsEscaped, 1);
    assert.equal(det.stats().blocksShared, 0);
  });

  test('two threads writing the same sub-block without locks are reported', () => {
    const { races, vars, det } = run(`
      T0 alloc a
      ${init}
      T1 w a[3]
      T1 w a[9]
      T2 w a[3]
      T2 w a[3]
      T1 w a[3]
    `);
    assert.deepEqual(vars, ['a[3]']);
    assert.equal(races[0].current.thread, 2);
    assert.equal(races[0].previous.thread, 1);
    assert.equal(det.stats().blocksShared, 1);
  });

  test('the sub-block size is an option', () => {
    const trace = `
      T0 alloc a
      T1 w a[0]
      T1 w a[3]
      T2 w a[4]
      T2 w a[7]
      T1 w a[3]
      T2 w a[4]
    `;
    assert.equal(run(trace, { blockSize: 4 }).races.length, 0);
    // One block of 8: T2's write to a[4] shares it; each element then conflicts at its first write (C = {}).
    assert.deepEqual(run(trace).vars, ['a[4]', 'a[7]', 'a[3]']);
  });

  test('locked accesses to a shared sub-block are not reported', () => {
    const { races } = run(`
      T0 alloc a
      T1 acq L
      T1 w a[0]
      T1 rel L
      T2 acq L
      T2 w a[0]
      T2 w a[1]
      T2 rel L
      T1 acq L
      T1 w a[1]
      T1 rel L
    `);
    assert.equal(races.length, 0);
  });
});

describe('eraser: alloc and growth', () => {
  test('alloc resets the object and its variables', () => {
    const { races, vars } = run(`
      T0 w o.f
      T1 w o.f
      T1 alloc o
      T1 w o.f
      T1 r o.f
      T1 w o.f
      T0 w o.f
    `);
    assert.deepEqual(vars, ['o.f', 'o.f']);
    assert.equal(races[1].current.index, 6);
    assert.equal(races[1].previous.thread, 1);
  });

  test('alloc makes the allocating thread the owner', () => {
    const { races } = run(`
      T0 alloc o
      T1 alloc p
      T1 w p.f
      T1 w p.f
      T0 w o.f
      T0 w o.f
    `);
    assert.equal(races.length, 0);
    const escaped = run(`
      T0 alloc o
      T1 w o.f
      T0 w o.f
    `);
    assert.equal(escaped.races.length, 1);
  });

  test('ids beyond the initial capacities', () => {
    const n = 3000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`T0 w o${i}.f`, `T0 w a[${i}]`);
    for (let i = 0; i < n; i++) lines.push(`T1 w o${i}.f`);
    const { races, det } = run(lines.join('\n'));
    assert.equal(races.length, n);
    assert.equal(det.stats().objectsEscaped, n);
  });
});
