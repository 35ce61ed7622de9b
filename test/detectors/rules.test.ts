/**
 * The kernels both front ends share: the lockset rules of Figure 5 with the ECMA-262 atomic write
 * (src/detectors/goldilocks/rules.ts) on the offline WorkingLockset and the live LiveLockset alike, the §5.1
 * short-circuit decision (short-circuit.ts), the ECMA-262 data-race predicate (src/detectors/ecma.ts) and the
 * vocabulary of synchronization kinds (src/model/sync.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conflicting } from '../../src/detectors/ecma.js';
import { WorkingLockset } from '../../src/detectors/goldilocks/lockset.js';
import {
  appliesInDirectTransfer,
  applyRule,
  type RuleLockset,
} from '../../src/detectors/goldilocks/rules.js';
import {
  CHECK_DECISIONS,
  Decided,
  firstShortCircuits,
  laterShortCircuits,
} from '../../src/detectors/goldilocks/short-circuit.js';
import { objectKey } from '../../src/live/shadow/goldilocks.js';
import { LiveLockset } from '../../src/live/shadow/lockset.js';
import { Symbols } from '../../src/model/symbols.js';
import { addsTarget, removes, SyncKind } from '../../src/model/sync.js';

const U = 1; // the cell's thread
const C = 3; // another thread: the child of a fork, the thread of a join
const OBJ = 5; // the cell's lock / volatile / atomic location / message (offline id)
const KEY = objectKey(3 << 18, 8); // the same object live (a tagged key)

/** The elements a test looks at: u, the cell's object y, thread c, data variable 6 (of commit's R ∪ W). */
type Element = 'u' | 'y' | 'c' | 'd';

interface Front {
  name: string;
  /** A lockset holding exactly `members`. */
  make(members: Element[]): RuleLockset;
  /** The cell's target for kind `kind`. */
  target(kind: number): number;
}

const symbols = new Symbols();
for (let i = 0; i < 8; i++) {
  symbols.threads.intern(`T${i}`);
  symbols.locks.intern(`l${i}`);
  symbols.volatiles.intern(`v${i}`);
  symbols.variables.intern(`x${i}`);
}
const isThreadKind = (kind: number) => kind === SyncKind.Fork || kind === SyncKind.Join;
const isLockKind = (kind: number) => kind === SyncKind.Acquire || kind === SyncKind.Release;

const offline: Front = {
  name: 'offline WorkingLockset',
  make(members) {
    const ws = new WorkingLockset();
    ws.reset(symbols);
    for (const m of members) {
      if (m === 'u') ws.addThread(U);
      if (m === 'c') ws.addThread(C);
      if (m === 'd') ws.addData(6);
      if (m === 'y') {
        ws.addLock(OBJ); // y is whichever the kind names: both namespaces hold it
        ws.addVolatile(OBJ);
      }
    }
    return ws;
  },
  target: (kind) => (isThreadKind(kind) ? C : OBJ),
};

const live: Front = {
  name: 'live LiveLockset',
  make(members) {
    const ls = new LiveLockset();
    ls.reset(U, -1);
    if (!members.includes('u')) ls.keys.delete(U);
    for (const m of members) {
      if (m === 'c') ls.addThread(C);
      if (m === 'y') ls.addLock(KEY);
    }
    return ls;
  },
  target: (kind) => (isThreadKind(kind) ? C : KEY),
};

/** The members of `ls` among the elements (y in the namespace kind `kind` uses). */
function members(front: Front, ls: RuleLockset, kind: number): Element[] {
  const y = front.target(kind);
  const out: Element[] = [];
  if (ls.hasThread(U)) out.push('u');
  if (isThreadKind(kind) ? false : isLockKind(kind) ? ls.hasLock(y) : ls.hasVolatile(y)) out.push('y');
  if (ls.hasThread(C)) out.push('c');
  if (ls.hasData(6)) out.push('d');
  return out;
}

// [kind, lockset before, lockset after]; Figure 5's rules, the ECMA-262 atomic write, commit's rule 9
const RULES: [keyof typeof SyncKind, Element[], Element[]][] = [
  ['Acquire', ['y'], ['u', 'y']], // rule 4
  ['Acquire', [], []],
  ['Release', ['u'], ['u', 'y']], // rule 5
  ['Release', [], []],
  ['VolatileRead', ['y'], ['u', 'y']], // rule 2
  ['AtomicRead', ['y'], ['u', 'y']],
  ['Receive', ['y'], ['u', 'y']],
  ['Subscribe', ['y'], ['u', 'y']],
  ['Subscribe', ['u'], ['u']],
  ['VolatileWrite', ['u'], ['u', 'y']], // rule 3: never removes
  ['VolatileWrite', ['y'], ['y']],
  ['Send', ['u'], ['u', 'y']],
  ['Publish', ['u'], ['u', 'y']],
  ['Publish', ['y'], ['y']],
  ['AtomicWrite', ['u'], ['u', 'y']], // rule 3′: a writer outside LS removes the location
  ['AtomicWrite', ['y'], []],
  ['AtomicWrite', ['y', 'c'], ['c']],
  ['AtomicRmw', ['y'], ['u', 'y']], // a read, then a write
  ['AtomicRmw', ['u'], ['u', 'y']],
  ['AtomicRmw', ['c', 'y'], ['u', 'y', 'c']],
  ['AtomicRmw', ['c'], ['c']],
  ['Fork', ['u'], ['u', 'c']], // rule 6
  ['Fork', ['c'], ['c']],
  ['Join', ['c'], ['u', 'c']], // rule 7
  ['Join', ['u'], ['u']],
];

describe('lockset rules (Figure 5 with the ECMA-262 atomic write), one kernel for both front ends', () => {
  it('the table names every kind (commit has its own test below)', () => {
    const named = new Set([...RULES.map(([name]) => name), 'Commit']);
    assert.deepEqual([...named].sort(), Object.keys(SyncKind).sort());
  });
  for (const front of [offline, live]) {
    for (const [name, before, after] of RULES) {
      it(`${front.name}: ${name} on {${before}} gives {${after}}`, () => {
        const kind = SyncKind[name];
        const ls = front.make(before);
        applyRule(ls, kind, U, front.target(kind), null);
        assert.deepEqual(members(front, ls, kind).sort(), [...after].sort());
      });
    }
  }

  it('rule 9, commit(u, R, W): LS ∩ (R ∪ W) ≠ ∅ adds u, then u ∈ LS adds R ∪ W', () => {
    const rw = Int32Array.of(6, 7);
    const ls = offline.make(['d']);
    applyRule(ls, SyncKind.Commit, U, 0, rw);
    assert.ok(ls.hasThread(U) && ls.hasData(7));
    const other = offline.make(['c']);
    applyRule(other, SyncKind.Commit, U, 0, rw);
    assert.ok(!other.hasThread(U) && !other.hasData(6));
    const owner = offline.make(['u']);
    applyRule(owner, SyncKind.Commit, U, 0, rw);
    assert.ok(owner.hasData(6) && owner.hasData(7));
  });

  it('a read-modify-write is its read then its write, from every lockset', () => {
    for (const before of [[], ['u'], ['y'], ['c'], ['u', 'y'], ['c', 'y']] as Element[][]) {
      const rmw = live.make(before);
      applyRule(rmw, SyncKind.AtomicRmw, U, KEY, null);
      const two = live.make(before);
      applyRule(two, SyncKind.AtomicRead, U, KEY, null);
      applyRule(two, SyncKind.AtomicWrite, U, KEY, null);
      assert.deepEqual(
        [...(rmw as LiveLockset).keys].sort(),
        [...(two as LiveLockset).keys].sort(),
        `{${before}}`,
      );
    }
  });

  it('the live walk stops when the target thread enters the lockset', () => {
    const ls = new LiveLockset();
    ls.reset(U, C);
    applyRule(ls, SyncKind.Release, U, KEY, null);
    assert.equal(ls.reached, false);
    applyRule(ls, SyncKind.Acquire, C, KEY, null);
    assert.equal(ls.reached, true);
  });
});

describe('direct ownership transfer (§5.1) with the same kernel', () => {
  it("applies only the two threads' cells and the rules that may remove", () => {
    assert.ok(appliesInDirectTransfer(SyncKind.Release, U, C, U));
    assert.ok(appliesInDirectTransfer(SyncKind.Acquire, C, C, U));
    assert.ok(!appliesInDirectTransfer(SyncKind.Acquire, 2, C, U));
    assert.ok(!appliesInDirectTransfer(SyncKind.Publish, 2, C, U));
    assert.ok(appliesInDirectTransfer(SyncKind.AtomicWrite, 2, C, U));
    assert.ok(appliesInDirectTransfer(SyncKind.AtomicRmw, 2, C, U));
  });

  it('skipping a third thread removes nothing: an atomic write by it still removes the location', () => {
    // U publishes through atomic location y, thread 2 overwrites it, C reads it: C does not get U's happens-before
    const cells: [number, number][] = [
      [SyncKind.AtomicWrite, U],
      [SyncKind.AtomicWrite, 2],
      [SyncKind.AtomicRead, C],
    ];
    const ls = new LiveLockset();
    ls.reset(U, C);
    for (const [kind, u] of cells)
      if (appliesInDirectTransfer(kind, u, C, U)) applyRule(ls, kind, u, KEY, null);
    assert.equal(ls.reached, false);
  });
});

describe('the short-circuits of §5.1, one decision', () => {
  it('in order: both transactional, same owner, alock held, happens-before memo; else a walk', () => {
    assert.equal(firstShortCircuits(true, 2, 2), Decided.Xact);
    assert.equal(firstShortCircuits(true, 1, 2), Decided.Xact);
    assert.equal(firstShortCircuits(false, 2, 2), Decided.Owner);
    assert.equal(firstShortCircuits(false, 1, 2), Decided.NONE);
    assert.equal(firstShortCircuits(false, -1, 2), Decided.NONE); // owner short-circuit off
    assert.equal(laterShortCircuits(2, 2, 0, 9), Decided.Alock);
    assert.equal(laterShortCircuits(-1, 2, 9, 9), Decided.HbMemo);
    assert.equal(laterShortCircuits(1, 2, 10, 9), Decided.NONE);
    assert.equal(laterShortCircuits(-1, 2, 0, -1), Decided.NONE);
  });

  it('its indices name the counters of both fronts', () => {
    assert.equal(CHECK_DECISIONS[Decided.Xact], 'shortCircuitXact');
    assert.equal(CHECK_DECISIONS[Decided.HbMemo], 'hbMemo');
    assert.equal(CHECK_DECISIONS[Decided.DirectTransfer], 'directTransfer');
    assert.equal(CHECK_DECISIONS[Decided.Lockset], 'lockset');
  });
});

describe('the ECMA-262 data-race predicate', () => {
  it('overlapping accesses, one a write, race unless both are atomic with equal ranges', () => {
    assert.equal(conflicting(true, true, false, true), true); // plain vs plain or atomic
    assert.equal(conflicting(true, true, true, true), false); // two atomics of one range
    assert.equal(conflicting(true, true, true, false), true); // mixed-size atomics
    assert.equal(conflicting(true, false, false, true), false); // two reads
    assert.equal(conflicting(false, true, false, false), false); // disjoint bytes
  });
});

describe('the synchronization kinds', () => {
  it('are distinct, non-zero, and fit a byte; only the atomic write and read-modify-write remove', () => {
    const values = Object.values(SyncKind);
    assert.equal(new Set(values).size, values.length);
    assert.ok(values.every((v) => v > 0 && v < 256));
    assert.deepEqual(values.filter(removes), [SyncKind.AtomicWrite, SyncKind.AtomicRmw]);
  });

  it("addsTarget: exactly the kinds whose rule adds the cell's target to a lockset holding its thread", () => {
    for (const name of Object.keys(SyncKind) as (keyof typeof SyncKind)[]) {
      if (name === 'Commit') continue; // rule 9 adds R ∪ W, no single target
      const kind = SyncKind[name];
      for (const front of [offline, live]) {
        const ls = front.make(['u']);
        applyRule(ls, kind, U, front.target(kind), null);
        const target = kind === SyncKind.Fork || kind === SyncKind.Join ? 'c' : 'y';
        assert.equal(addsTarget(kind), members(front, ls, kind).includes(target), `${front.name} ${name}`);
      }
    }
  });
});
