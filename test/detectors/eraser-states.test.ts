/** Savage's Eraser state transition (src/detectors/eraser/states.ts), each transition on its own. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CONFLICT,
  EXCLUSIVE,
  next,
  SHARED,
  SHARED_MODIFIED,
  STATE_NAMES,
  startsLockset,
  VIRGIN,
} from '../../src/detectors/eraser/states.js';

describe('Eraser states (Savage et al. §2.2)', () => {
  test('the candidate lockset starts (C := held) on leaving Virgin or Exclusive, and is refined after', () => {
    assert.equal(startsLockset(VIRGIN), true);
    assert.equal(startsLockset(EXCLUSIVE), true);
    assert.equal(startsLockset(SHARED), false);
    assert.equal(startsLockset(SHARED_MODIFIED), false);
  });

  test("Exclusive → Shared at another thread's read, even with no lock held (no warning)", () => {
    assert.equal(next(EXCLUSIVE, false, true), SHARED);
    assert.equal(next(EXCLUSIVE, false, false), SHARED);
    assert.equal(next(VIRGIN, false, true), SHARED);
  });

  test("Exclusive → Shared-Modified at another thread's write; a warning (Conflict) when no lock is held", () => {
    assert.equal(next(EXCLUSIVE, true, false), SHARED_MODIFIED);
    assert.equal(next(EXCLUSIVE, true, true), CONFLICT);
    assert.equal(next(VIRGIN, true, true), CONFLICT);
  });

  test('Shared stays Shared at reads whatever the lockset; a write makes it Shared-Modified', () => {
    assert.equal(next(SHARED, false, true), SHARED);
    assert.equal(next(SHARED, false, false), SHARED);
    assert.equal(next(SHARED, true, false), SHARED_MODIFIED);
    assert.equal(next(SHARED, true, true), CONFLICT);
  });

  test('Shared-Modified warns at any access that leaves its candidate lockset empty', () => {
    assert.equal(next(SHARED_MODIFIED, false, false), SHARED_MODIFIED);
    assert.equal(next(SHARED_MODIFIED, true, false), SHARED_MODIFIED);
    assert.equal(next(SHARED_MODIFIED, false, true), CONFLICT);
    assert.equal(next(SHARED_MODIFIED, true, true), CONFLICT);
  });

  test('every state has a name for reports', () => {
    for (const s of [VIRGIN, EXCLUSIVE, SHARED, SHARED_MODIFIED, CONFLICT]) assert.ok(STATE_NAMES[s]);
    assert.equal(STATE_NAMES[SHARED_MODIFIED], 'SharedModified');
  });
});
