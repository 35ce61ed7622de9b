/**
 * The shared pool of free Info records (`InfoPool.takeInfo`, `allocInfo`, `takeBatch`, `release`, `src/live/shadow/goldilocks.ts`;
 * `CTL.freeInfos`): a thread takes one batch of it at a time, so that records one thread freed serve every other
 * before the shadow heap grows (issue 24 §1 memory: moldyn's heap was 7.5 MiB for 0.3 MiB shared, most of it free
 * records one thread had taken whole).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CTL, rawAtomics } from '../../src/live/memory/state.js';
import { Shadow } from '../../src/live/shadow/goldilocks.js';
import { twoThreads } from '../helpers/two-threads.js';

/** A thread's checker with its record allocation open: a record as the checker takes one, and its release. */
class Pooled extends Shadow {
  take(): number {
    return this.takeInfo();
  }
  give(e: number): void {
    this.release(e);
  }
}

describe('Info pool', () => {
  test('records one thread freed serve both threads before the heap grows, none handed out twice', () => {
    const { s } = twoThreads();
    const one = new Pooled(s, 1);
    const two = new Pooled(s, 2);
    const made = Array.from({ length: 640 }, () => one.take());
    assert.equal(new Set(made).size, 640);
    for (const e of made) one.give(e); // one keeps 64, the rest go to the shared pool by batches of 64
    const top = rawAtomics.load(s.ctl, CTL.heapTop);
    const taken = new Set<number>();
    for (let k = 0; k < 4 * 64; k++) {
      taken.add(two.take());
      taken.add(one.take());
    }
    for (let k = 0; k < 2 * 64; k++) taken.add(one.take()); // one's 64 kept, then the 9 batches: all 640
    assert.equal(taken.size, 640, 'every record taken once');
    for (const e of taken) assert.ok(made.includes(e), `record ${e} is one that was freed`);
    assert.equal(rawAtomics.load(s.ctl, CTL.heapTop), top, 'no new records from the heap');
    assert.equal(rawAtomics.load(s.ctl, CTL.freeInfos), 0, 'the shared pool is empty');
    const fresh = one.take();
    assert.ok(!made.includes(fresh), 'then new records');
    assert.ok(rawAtomics.load(s.ctl, CTL.heapTop) > top);
  });
});
