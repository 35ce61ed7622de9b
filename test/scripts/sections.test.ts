import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { replaceSection, writeSection } from '../../scripts/sections.js';

const DOC = [
  'Intro, by hand.',
  '<!-- results:begin -->',
  '# Old generated',
  '| a |',
  '<!-- results:end -->',
  '',
  '# Real clients (by hand)',
  'kept | as is',
  '',
].join('\n');

test('replaceSection rewrites only the text between the markers', () => {
  const out = replaceSection(DOC, 'results', '# New generated\n\nrow\n');
  assert.equal(
    out,
    [
      'Intro, by hand.',
      '<!-- results:begin -->',
      '# New generated',
      '',
      'row',
      '<!-- results:end -->',
      '',
      '# Real clients (by hand)',
      'kept | as is',
      '',
    ].join('\n'),
  );
  assert.equal(replaceSection(out, 'results', '# Old generated\n| a |'), DOC);
});

test('replaceSection of no file gives the section alone', () => {
  assert.equal(
    replaceSection(undefined, 'results', 'x'),
    '<!-- results:begin -->\nx\n<!-- results:end -->\n',
  );
});

test('replaceSection refuses a file without both markers once, in order', () => {
  assert.throws(() => replaceSection('# hand-written\n', 'results', 'x'), /found 0 and 0/);
  assert.throws(() => replaceSection(`${DOC}<!-- results:end -->\n`, 'results', 'x'), /found 1 and 2/);
  assert.throws(
    () => replaceSection('<!-- results:end -->\n<!-- results:begin -->\n', 'results', 'x'),
    /comes before/,
  );
  assert.throws(() => replaceSection(DOC, 'clients', 'x'), /<!-- clients:begin -->/);
});

test('writeSection keeps the hand-written rest of an existing file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sections-'));
  try {
    const file = path.join(dir, 'RESULTS.md');
    writeFileSync(file, DOC);
    writeSection(file, 'results', 'fresh');
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith('Intro, by hand.\n<!-- results:begin -->\nfresh\n<!-- results:end -->\n'));
    assert.ok(text.endsWith('# Real clients (by hand)\nkept | as is\n'));
    writeSection(path.join(dir, 'new.md'), 'results', 'only');
    assert.equal(
      readFileSync(path.join(dir, 'new.md'), 'utf8'),
      '<!-- results:begin -->\nonly\n<!-- results:end -->\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
