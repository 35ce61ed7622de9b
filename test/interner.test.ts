import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Interner } from '../src/model/interner.js';

describe('Interner', () => {
  /** Interns `names` in order. */
  function ids(names: string[]): number[] {
    const it = new Interner();
    return names.map((n) => {
      const b = Buffer.from(n, 'utf8');
      return it.internBytes(b, 0, b.length);
    });
  }

  /**
   * `names` made to share one hash (one probe chain for all): the same length, first 4 and last 8 bytes (all the
   * hash reads), their differences in between (each name's hex, cut or padded to 24 characters).
   */
  const colliding = (names: string[]): string[] =>
    names.map((n) => `head${Buffer.from(n).toString('hex').padEnd(24, '-').slice(0, 24)}abcdefgh`);

  /** The expected ids: first-seen order. */
  function firstSeen(names: string[]): number[] {
    const m = new Map<string, number>();
    return names.map((n) => {
      if (!m.has(n)) m.set(n, m.size);
      return m.get(n) as number;
    });
  }

  it('gives equal names one id and different names different ids, hashes colliding or not', () => {
    // Short and long names that share their last 8 bytes, or all but one byte, or are prefixes of each other.
    const name = fc.oneof(
      fc.constantFrom('', 'a', 'ab', '12345678', '02345678', '123456789', '023456789', 'x123456789'),
      fc.string({ maxLength: 12 }).map((s) => `${s}abcdefgh`),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(name, { maxLength: 60 }), fc.boolean(), (given, collide) => {
        const names = collide ? colliding(given) : given;
        assert.deepEqual(ids(names), firstSeen(names));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a name by the words of its last bytes as a scanner computes them', () => {
    const it = new Interner();
    for (const n of ['o12.f0', 'L436', 'V35f483ee.1527', 'W35f483ee.1527', 'é€', '']) {
      const b = Buffer.from(n, 'utf8');
      let w0 = 0;
      let w1 = 0;
      for (const byte of b) {
        w1 = (w1 << 8) | (w0 >>> 24);
        w0 = (w0 << 8) | byte;
      }
      const id = it.internTail(b, 0, b.length, w0, w1);
      assert.equal(it.internBytes(b, 0, b.length), id, n);
      assert.equal(it.name(id), n);
      assert.equal(it.lookup(n), id);
    }
    assert.equal(it.size, 6);
  });
});
