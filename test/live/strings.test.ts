/**
 * The live detector's string heap (`src/live/memory/strings.ts`): a string that grows the shared `str` buffer past
 * the length of the thread's view of it is stored whole (its code units past the old view were lost before, so a
 * run with a few dozen races wrote race records with NUL characters and its JSON report failed to parse: "Bad control
 * character in string literal"), and a thread whose views predate another thread's growth stores and reads whole
 * strings too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createState, StateViews } from '../../src/live/memory/state.js';
import { getString, putString } from '../../src/live/memory/strings.js';

describe('string heap', () => {
  test('a string that grows the buffer is stored whole', () => {
    const s = new StateViews(createState({ onRace: 0, detector: 0 }));
    const units = s.str.length;
    const text = `${'a'.repeat(units - 10)}${'b'.repeat(units)}`;
    const id = putString(s, text);
    assert.ok(s.str.length > units, 'the buffer grew');
    assert.equal(getString(s, id), text);
  });

  test('a thread whose views predate another thread growing the buffer stores whole strings', () => {
    const state = createState({ onRace: 0, detector: 0 });
    const one = new StateViews(state);
    const other = new StateViews(state); // another thread's views, made before the growth
    const units = one.str.length;
    const first = 'c'.repeat(units + 100);
    const second = 'd'.repeat(units);
    const a = putString(one, first);
    const b = putString(other, second);
    assert.equal(getString(one, a), first);
    assert.equal(getString(one, b), second);
    assert.equal(getString(other, a), first);
  });
});
