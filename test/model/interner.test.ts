import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Interner } from '../../src/model/interner.js';
import { Symbols } from '../../src/model/symbols.js';

describe('Interner', () => {
  /**
   * Interns `names` in order: with internBytes, or (`viaFind`) as the parser's fast path does, find and, when it
   * misses, addMissed. Checks that each id names its name.
   */
  function ids(names: string[], viaFind = false): number[] {
    const it = new Interner();
    const out = names.map((n) => {
      const b = Buffer.from(n, 'utf8');
      if (!viaFind) return it.internBytes(b, 0, b.length);
      const id = it.find(b, 0, b.length);
      return id >= 0 ? id : it.addMissed(b, 0, b.length);
    });
    for (const [i, id] of out.entries()) assert.equal(it.name(id), names[i]);
    return out;
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

  it('gives equal names one id and different names different ids, hashes colliding or not, by internBytes or by find and addMissed', () => {
    // Short and long names that share their last 8 bytes, or all but one byte, or are prefixes of each other.
    const name = fc.oneof(
      fc.constantFrom('', 'a', 'ab', '12345678', '02345678', '123456789', '023456789', 'x123456789'),
      fc.string({ maxLength: 12 }).map((s) => `${s}abcdefgh`),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(
        fc.array(name, { maxLength: 60 }),
        fc.boolean(),
        fc.boolean(),
        (given, collide, viaFind) => {
          const names = collide ? colliding(given) : given;
          assert.deepEqual(ids(names, viaFind), firstSeen(names));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('find looks a name up without interning it', () => {
    const it = new Interner();
    for (const n of ['o12.f0', 'L436', 'V35f483ee.1527', 'W35f483ee.1527', 'é€', '']) {
      const b = Buffer.from(`|${n}|`, 'utf8');
      assert.equal(it.find(b, 1, b.length - 1), -1, n);
      const id = it.internBytes(b, 1, b.length - 1);
      assert.equal(it.find(b, 1, b.length - 1), id, n);
      assert.equal(it.name(id), n);
      assert.equal(it.lookup(n), id);
    }
    assert.equal(it.size, 6);
  });

  it('a name is found wherever it lies in a buffer (its words read byte by byte near the start, by one load beyond)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 20 }),
        fc.nat(9),
        (names, pad) => {
          const it = new Interner();
          const idsAtStart = names.map((n) => {
            const b = Buffer.from(n, 'utf8');
            return it.internBytes(b, 0, b.length);
          });
          for (const [i, n] of names.entries()) {
            const b = Buffer.from(`${'|'.repeat(pad)}${n}|`, 'utf8');
            assert.equal(it.find(b, pad, b.length - 1), idsAtStart[i], JSON.stringify(n));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('find and addMissed keep ids and names through the table doubling', () => {
    const names = Array.from({ length: 5000 }, (_, i) =>
      i % 3 === 0 ? `o${i}.f${i % 7}` : `@${i}[${i % 11}]`,
    );
    assert.deepEqual(ids([...names, ...names], true), firstSeen([...names, ...names]));
  });
});

describe('Symbols: the object and array index a variable name carries', () => {
  it('follows the documented rules, on the bytes of the name', () => {
    const cases: [string, string, number][] = [
      ['a[3]', 'a', 3],
      ['@7[2]', '@7', 2],
      ['a[b]', 'a[b]', -1],
      ['[3]', '[3]', -1],
      ['a[12345678901234567890]', 'a', Number('12345678901234567890')],
      ['@03.test/Test.x_I', '@03', -1],
      ['@0g.f', '@0g', -1],
      ['null.test/Test.cnt_I', 'test/Test', -1],
      ['null.x', 'null', -1],
      ['pkg.Class.f@12', '@12', -1],
      ['C.f@', 'C', -1],
      ['C.f@1x', 'C', -1],
      ['o.f', 'o', -1],
      ['x', 'x', -1],
      ['é.f€', 'é', -1],
    ];
    const s = new Symbols();
    for (const [name, object, index] of cases) {
      const id = s.variableNamed(name);
      assert.equal(s.variables.name(id), name);
      assert.equal(s.objects.name(s.objectOf(id)), object, name);
      assert.equal(s.variableArrayIndex[id], index, name);
    }
    // the variables of one object are listed together
    const a = s.objects.lookup('a');
    const listed: string[] = [];
    for (let v = s.firstVariableOf(a); v >= 0; v = s.variableNextInObject[v])
      listed.push(s.variables.name(v));
    assert.deepEqual(listed.sort(), ['a[12345678901234567890]', 'a[3]']);
  });
});

describe('Symbols.takeChanges / applyChanges: a copy of the tables follows the original without interning', () => {
  /**
   * Interns `names` into `s` as the parser does: variables, every third also as a location, every fifth also as the
   * object of an `alloc` (`Symbols.allocObject`).
   */
  function intern(s: Symbols, names: string[]): void {
    for (const n of names) {
      s.variableNamed(n);
      if (n.length % 3 === 0) s.locations.intern(n);
      if (n.length % 5 === 0) {
        const b = Buffer.from(n, 'utf8');
        s.allocObject(b, 0, b.length);
      }
    }
  }
  /**
   * Every table of `s` as names by id, and the variables' objects, indices and object lists, every variable described
   * first (`s`: not one that tracks its changes, whose `alloc` objects are alloc names).
   */
  function contents(s: Symbols) {
    s.resolveAllocNames();
    s.describeUpTo(s.variables.size);
    const tables = [s.threads, s.variables, s.locks, s.objects, s.locations].map((t) =>
      Array.from({ length: t.size }, (_, id) => t.name(id)),
    );
    const n = s.variables.size;
    const lists = Array.from({ length: s.objects.size }, (_, o) => {
      const xs: number[] = [];
      for (let x = s.objectFirstVariable[o]; x >= 0; x = s.variableNextInObject[x]) xs.push(x);
      return xs;
    });
    return {
      tables,
      objects: Array.from(s.variableObject.subarray(0, n)),
      indices: Array.from(s.variableArrayIndex.subarray(0, n)),
      lists,
    };
  }

  it('in steps of any size, through table doublings: the same names, ids, objects, and every name found', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            fc.oneof(fc.constantFrom('x', 'a[1]', 'o.f'), fc.string({ minLength: 1, maxLength: 12 })),
            { maxLength: 400 },
          ),
          {
            maxLength: 6,
          },
        ),
        (steps) => {
          const original = new Symbols();
          original.trackChanges();
          const copy = new Symbols();
          const eager = new Symbols(); // interning as a parser in the calling thread does
          for (const step of steps) {
            intern(original, step);
            intern(eager, step);
            copy.applyChanges(original.takeChanges());
            assert.deepEqual(contents(copy), contents(eager));
          }
          for (const step of steps)
            for (const n of step) assert.equal(copy.variables.lookup(n), original.variables.lookup(n));
          // the copy's tables stay usable: a name interned in both gets the same id
          assert.equal(copy.variables.intern('new.name'), original.variables.intern('new.name'));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('many names in one step (rehashes) and none in the next, which gives nothing to post', () => {
    const original = new Symbols();
    original.trackChanges();
    const copy = new Symbols();
    const eager = new Symbols();
    const names = Array.from({ length: 5000 }, (_, i) => `o${i % 97}.f${i}`);
    intern(original, names);
    intern(eager, names);
    copy.applyChanges(original.takeChanges());
    const none = original.takeChanges();
    assert.equal(none, undefined);
    copy.applyChanges(none);
    assert.deepEqual(contents(copy), contents(eager));
    assert.equal(copy.variables.lookup(`o${4000 % 97}.f4000`), 4000);
  });

  it('a step naming one new location only: the other tables send nothing, and the copy follows', () => {
    const original = new Symbols();
    original.trackChanges();
    const copy = new Symbols();
    intern(original, ['abc', 'de']);
    copy.applyChanges(original.takeChanges());
    original.locations.intern('L9');
    const changes = original.takeChanges();
    assert.ok(changes !== undefined);
    assert.deepEqual(
      changes.tables.map((t) => t !== undefined),
      changes.tables.map((_, k) => k === 5), // threads, variables, locks, volatiles, alloc names, locations, ...
    );
    copy.applyChanges(changes);
    assert.deepEqual(contents(copy), contents(original));
    assert.equal(copy.locations.lookup('L9'), original.locations.lookup('L9'));
  });

  it('refuses changes that do not follow its contents, and changes not tracked', () => {
    const original = new Symbols();
    original.trackChanges();
    intern(original, ['a', 'b']);
    const copy = new Symbols();
    copy.variableNamed('z');
    assert.throws(() => copy.applyChanges(original.takeChanges()), /1 names here, the changes follow 0/);
    assert.throws(() => new Symbols().takeChanges(), /not tracked/);
  });
});
