/**
 * Differential testing: on random feasible traces, Goldilocks (default, and with each optimization off),
 * DJIT+ and FastTrack must report the same racy variables, each with the same first racy event, as the
 * eager Figure-5 oracle. A failure message gives the disagreeing configurations and the shrunk trace text.
 * Longer runs: `npm run fuzz` (test/detectors/fuzz.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkText } from '../../src/check-text.js';
import {
  agreementProperty,
  assertAgreement,
  feasibleTrace,
  type GeneratedTrace,
  oracleVerdicts,
} from '../helpers/gen.js';

/** Traces per run; each is checked by eager, djit, fasttrack and goldilocks in 13 configurations (../helpers/gen.ts). */
const NUM_RUNS = 10_000;

const SAMPLE = 500;

function sample(seed: number): GeneratedTrace[] {
  return fc.sample(feasibleTrace(), { numRuns: SAMPLE, seed });
}

function feasible(text: string): boolean {
  try {
    checkText(text, { detectors: [] });
    return true;
  } catch {
    return false;
  }
}

describe('trace generator', () => {
  test('generates feasible traces', () => {
    for (const t of sample(1)) {
      assert.ok(feasible(t.text), `infeasible trace:\n${t.text}`);
      assert.equal(t.text.split('\n').filter((l) => l !== '').length, t.events);
    }
  });

  test('produces racy traces and race-free traces (with shared variables) often', () => {
    let racy = 0;
    let raceFreeShared = 0;
    for (const t of sample(2)) {
      if (oracleVerdicts(t.text).size > 0) racy++;
      else {
        // race-free although some variable is accessed by two threads
        const threads = new Map<string, Set<string>>();
        for (const line of t.text.split('\n')) {
          const m = /^(T\d+)\|[rw]\(([^)]*)\)/.exec(line);
          if (m === null) continue;
          const s = threads.get(m[2]) ?? new Set();
          s.add(m[1]);
          threads.set(m[2], s);
        }
        if ([...threads.values()].some((s) => s.size > 1)) raceFreeShared++;
      }
    }
    assert.ok(racy >= SAMPLE * 0.2, `only ${racy}/${SAMPLE} racy traces`);
    assert.ok(raceFreeShared >= SAMPLE * 0.05, `only ${raceFreeShared}/${SAMPLE} race-free shared traces`);
  });

  test('exercises every operation, nested and re-entrant locking, varied locations', () => {
    const text = sample(3)
      .map((t) => t.text)
      .join('\n');
    for (const op of [
      'r',
      'w',
      'acq',
      'rel',
      'fork',
      'join',
      'vr',
      'vw',
      'rmw',
      'ar',
      'aw',
      'armw',
      'ard',
      'awd',
      'alloc',
      'commit',
      'wait',
      'notify',
    ])
      assert.ok(new RegExp(`\\|${op}\\(`).test(text), `no ${op}`);
    for (const v of ['o1.f', 'o1.g', 'o2.f', 'o2.g']) assert.ok(text.includes(`(${v})`), `no access to ${v}`);
    for (const o of ['o1', 'o2']) assert.ok(text.includes(`alloc(${o})`), `no alloc(${o})`);
    assert.ok(/\|commit\(;[^)]+\)/.test(text), 'no commit with an empty read set');
    assert.ok(/\|commit\([^;)]+;\)/.test(text), 'no commit with an empty write set');
    assert.ok(/\|commit\([^;)]+,[^;)]+;[^)]+\)/.test(text), 'no commit with both sets, one of 2+ variables');
    assert.ok(/\|$/m.test(text), 'no empty location');
    assert.ok(/\|L\d+$/m.test(text), 'no location');
    assert.ok(/\|[rw]\([^)]*\)=\d+\|/.test(text), 'no access with a value');
    for (const n of [2, 5]) assert.ok(text.includes(`T${n - 1}|`), `no trace with ${n} threads`);

    // Locking: nested (another lock held) and re-entrant (the same lock held), per thread.
    let nested = 0;
    let reentrant = 0;
    for (const t of sample(3)) {
      const held = new Map<string, string[]>();
      for (const line of t.text.split('\n')) {
        const m = /^(T\d+)\|(acq|rel)\(([^)]*)\)/.exec(line);
        if (m === null) continue;
        const h = held.get(m[1]) ?? [];
        held.set(m[1], h);
        if (m[2] === 'acq') {
          if (h.includes(m[3])) reentrant++;
          else if (h.length > 0) nested++;
          h.push(m[3]);
        } else h.splice(h.lastIndexOf(m[3]), 1);
      }
    }
    assert.ok(nested >= 20, `only ${nested} nested acquisitions`);
    assert.ok(reentrant >= 20, `only ${reentrant} re-entrant acquisitions`);
  });

  test('shrinking keeps traces feasible', () => {
    const seen: GeneratedTrace[] = [];
    const r = fc.check(
      fc.property(feasibleTrace(), (t) => {
        seen.push(t);
        return t.events < 12;
      }),
      { seed: 4, numRuns: 1000 },
    );
    assert.ok(r.failed && r.counterexample !== null, 'no trace of 12 events generated');
    assert.equal(r.counterexample[0].events, 12, 'not shrunk to the minimal size');
    assert.ok(r.numShrinks > 0);
    for (const t of seen) assert.ok(feasible(t.text), `infeasible trace while shrinking:\n${t.text}`);
  });
});

describe('differential: goldilocks (all configurations), djit, fasttrack agree with eager', () => {
  test('paper-style hand-off and race', () => {
    assertAgreement(
      [
        'T0|w(o1.f)|L1',
        'T0|fork(T1)|',
        'T1|acq(l1)|',
        'T1|w(o1.f)|L2',
        'T1|rel(l1)|',
        'T0|acq(l1)|',
        'T0|r(o1.f)|L3',
        'T0|rel(l1)|',
        'T0|w(o1.g)|',
        'T1|commit(o1.g;o2.f)|L4',
        'T0|join(T1)|',
        'T0|w(o2.f)|',
        '',
      ].join('\n'),
    );
  });

  test(`${NUM_RUNS} random feasible traces`, () => {
    fc.assert(agreementProperty(feasibleTrace()), { numRuns: NUM_RUNS });
  });
});
