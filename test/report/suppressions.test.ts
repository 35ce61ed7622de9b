/**
 * Suppression files (src/report/suppressions.ts, issue 25 §2): ThreadSanitizer's format (`race:`/`race_top:`,
 * `#` comments, blank lines), its pattern matching (`*`, `^`, `$`, else a substring), and what a pattern is matched
 * against: the function, file and package of each frame of either access.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RaceAccess } from '../../src/report/race.js';
import { parseSuppressions, SuppressionError, suppressionOf } from '../../src/report/suppressions.js';

const access = (location: string, stack?: string): RaceAccess => ({
  index: -1,
  thread: 'T1',
  access: 'write',
  transactional: false,
  atomic: false,
  location,
  ...(stack ? { stack } : {}),
});

const first = (text: string, current: RaceAccess, previous = access('')) =>
  suppressionOf(parseSuppressions(text, 's.txt'), current, previous);

describe('parseSuppressions', () => {
  it('reads race: and race_top: lines, skipping comments and blank lines, with their file:line', () => {
    const s = parseSuppressions('# header\n\nrace:foo\n  race_top:bar*baz  \n', 'supp.txt');
    assert.deepEqual(
      s.map((x) => [x.type, x.pattern, x.file, x.line]),
      [
        ['race', 'foo', 'supp.txt', 3],
        ['race_top', 'bar*baz', 'supp.txt', 4],
      ],
    );
  });

  for (const [line, why] of [
    ['foo', /s\.txt:2: 'foo' is not type:pattern/],
    ['race:', /s\.txt:2: empty pattern/],
    ['mutex:m', /s\.txt:2: ThreadSanitizer's 'mutex:' is not a data-race suppression/],
    ['races:x', /s\.txt:2: unknown suppression type 'races'/],
  ] as const)
    it(`rejects '${line}' naming file:line`, () => {
      assert.throws(
        () => parseSuppressions(`# ok\n${line}\n`, 's.txt'),
        (e: unknown) =>
          e instanceof SuppressionError && why.test(e.message) && /\(expected race:<pattern>/.test(e.message),
      );
    });
});

describe('suppressionOf', () => {
  const stack = [
    '    at Ring.push (file:///app/node_modules/@acme/ring/index.js:10:5)',
    '    at produce (/app/src/producer.mjs:3:1)',
    '    at async main (/app/src/main.mjs:9:9)',
  ].join('\n');
  const current = access('/app/node_modules/@acme/ring/index.js:10:5', stack);

  it('matches a substring of a frame’s function, file or package', () => {
    assert.equal(first('race:Ring.push', current), 0);
    assert.equal(first('race:producer.mjs', current), 0);
    assert.equal(first('race:@acme/ring', current), 0);
    assert.equal(first('race:main', current), 0); // `async main`
    assert.equal(first('race:nothing', current), -1);
  });

  it('anchors with ^ and $, and * stands for any characters', () => {
    assert.equal(first('race:^produce$', current), 0);
    assert.equal(first('race:^roduce', current), -1);
    assert.equal(first('race:^/app/src/*.mjs$', current), 0);
    assert.equal(first('race:^/app/lib/*.mjs$', current), -1);
  });

  it('race_top: only the first frame of each access (its location)', () => {
    assert.equal(first('race_top:producer.mjs', current), -1);
    assert.equal(first('race_top:ring/index.js:10', current), 0);
    assert.equal(first('race_top:other.mjs', current, access('/app/other.mjs:1:1')), 0);
  });

  it('the previous access counts as much as the current one; the first matching line wins', () => {
    assert.equal(
      first('race:zzz\nrace:old.mjs\nrace:old', access('/a.mjs:1:1'), access('/b/old.mjs:2:2')),
      1,
    );
  });

  it('offline locations: the whole text, its file, and RoadRunner’s method', () => {
    const rr = access('Connection.java:close:9');
    assert.equal(first('race:^close$', rr), 0);
    assert.equal(first('race:^Connection.java$', rr), 0);
    assert.equal(first('race:^Connection.java:close:9$', rr), 0);
    assert.equal(first('race:^run$', rr), -1);
  });

  it('a pattern’s regular-expression characters are literal', () => {
    assert.equal(first('race:a.b', access('/x/aXb.mjs:1:1')), -1);
    assert.equal(first('race:(x)', access('/x/f(x).mjs:1:1')), 0);
  });
});
