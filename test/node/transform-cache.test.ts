/**
 * The transform cache (`src/node/cache.ts`, used by `transformSource` of `src/node/transform.ts`; issue 24 §2): a hit
 * gives the code a fresh rewrite gives, a changed source is a new entry, a corrupt entry is ignored and written again,
 * and concurrent writers of one entry (worker threads of the build, `npm test` builds first) leave one whole entry
 * that readers never see half of.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';

const dir = mkdtempSync(path.join(os.tmpdir(), 'goldilocks-cache-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// read by ../../src/node/settings.ts when it is first imported, below
process.env.GOLDILOCKS_CACHE = dir;
const { transformSource } = await import('../../src/node/transform.js');
const { instrument } = await import('../../src/instrument/instrument.js');
const { cacheKey, readCached, writeCached } = await import('../../src/node/cache.js');

/** A file URL: transformSource rewrites it with an inline source map (`sourceMap: true`), part of the cache key. */
const FILE = 'file:///app/kernel.mjs';
const SOURCE = `const a = new Int32Array(new SharedArrayBuffer(64));\nfor (let i = 0; i < 16; i++) a[i] = a[i] + 1;\n`;
const fresh = (source: string): string =>
  instrument(source, { file: FILE, module: true, sourceMap: true }).code;
const entries = (): string[] => readdirSync(dir).filter((f) => !f.endsWith('.tmp'));

describe('transform cache', () => {
  test('a hit gives the code of a fresh rewrite', () => {
    const first = transformSource(SOURCE, FILE, true);
    assert.notEqual(first, SOURCE, 'the source has accesses to rewrite');
    assert.equal(first, fresh(SOURCE));
    const key = cacheKey(SOURCE, { file: FILE, module: true, sourceMap: true });
    assert.deepEqual(readCached(dir, key), { code: first, warnings: [] });
    assert.equal(transformSource(SOURCE, FILE, true), first);
  });

  test('the entry is what a hit returns (the rewriter does not run)', () => {
    const source = `${SOURCE}// marked\n`;
    const key = cacheKey(source, { file: FILE, module: true, sourceMap: true });
    writeCached(dir, key, { code: 'globalThis.marked = 1;\n', warnings: [] });
    assert.equal(transformSource(source, FILE, true), 'globalThis.marked = 1;\n');
  });

  test('a changed source, file name or module kind is another entry', () => {
    const before = entries().length;
    const changed = SOURCE.replace('a[i] + 1', 'a[i] + 2');
    assert.equal(transformSource(changed, FILE, true), fresh(changed));
    assert.equal(entries().length, before + 1);
    const keys = new Set([
      cacheKey(SOURCE, { file: FILE, module: true, sourceMap: true }),
      cacheKey(changed, { file: FILE, module: true, sourceMap: true }),
      cacheKey(SOURCE, { file: 'file:///app/other.mjs', module: true, sourceMap: true }),
      cacheKey(SOURCE, { file: FILE, module: false, sourceMap: true }),
    ]);
    assert.equal(keys.size, 4);
  });

  test('a corrupt entry is ignored, and written again whole', () => {
    const source = `${SOURCE}// corrupt\n`;
    const key = cacheKey(source, { file: FILE, module: true, sourceMap: true });
    const good = transformSource(source, FILE, true);
    const file = path.join(dir, key);
    const text = readFileSync(file, 'utf8');
    for (const bad of [
      text.slice(0, text.length - 10), // truncated
      text.replace('a[i]', 'b[i]').replace('__gl', '__GL'), // same length, other code
      'not an entry',
      '',
      `${text.slice(0, text.indexOf('\n')).replace(key, 'f'.repeat(64))}${text.slice(text.indexOf('\n'))}`, // another key
    ]) {
      writeFileSync(file, bad);
      assert.equal(readCached(dir, key), undefined);
      assert.equal(transformSource(source, FILE, true), good);
      assert.equal(readFileSync(file, 'utf8'), text, 'written again');
    }
  });

  test('concurrent writers of one entry: readers see it whole or not at all', async () => {
    const key = 'c'.repeat(64);
    const cacheUrl = new URL('../../dist/node/cache.js', import.meta.url).href;
    // each writer writes its own code (all valid), a big one, many times; a half-written entry would fail its checks
    const writer = `
      const { workerData: { dir, key, n, url } } = require('node:worker_threads');
      import(url).then(({ writeCached }) => {
        const code = ('/* writer ' + n + ' */ globalThis.x = ' + n + ';\\n').repeat(20000);
        for (let i = 0; i < 30; i++) writeCached(dir, key, { code, warnings: ['w' + n] });
      });`;
    const workers = [0, 1, 2, 3].map(
      (n) => new Worker(writer, { eval: true, workerData: { dir, key, n, url: cacheUrl } }),
    );
    const exits = workers.map((w) => new Promise((resolve) => w.once('exit', resolve)));
    let done = false;
    void Promise.all(exits).then(() => {
      done = true;
    });
    let seen = 0;
    while (!done) {
      // once the entry exists (it is never removed), every read of it must find it whole
      const existed = existsSync(path.join(dir, key));
      const hit = readCached(dir, key);
      if (existed) {
        assert.ok(hit !== undefined, 'a reader saw a partial entry');
        const n = Number(hit.warnings[0].slice(1));
        assert.equal(hit.code, `/* writer ${n} */ globalThis.x = ${n};\n`.repeat(20000));
        seen++;
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    const last = readCached(dir, key);
    assert.ok(last !== undefined, 'one whole entry is left');
    assert.ok(seen > 0);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith(key) && f !== key),
      [],
      'no temporary file is left',
    );
  });
});
