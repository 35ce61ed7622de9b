/**
 * `--html FILE` of `goldilocks check` and `goldilocks run` (issue 25 §2, src/report/html/): the page is
 * self-contained (no request but its own file), loads in a real headless browser (Debian's chromium driven by
 * puppeteer-core) without console errors, and shows every race: both accesses with their source lines (or why
 * not), offline the timelines and the lockset's evolution (Figure 6), live what is missing. Skipped, with a message,
 * where no browser is installed (.ci/run installs chromium).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'puppeteer-core';
import type { JsonReport } from '../../src/report/json.js';
import { cli, cliAsync, ROOT, tempFile, tempPath } from '../helpers/helpers.js';

const BROWSER = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((b) =>
  existsSync(b),
);
const NO_BROWSER = BROWSER
  ? false
  : 'no headless browser installed (expected /usr/bin/chromium: apt-get install chromium, as .ci/run does)';

interface Shown {
  errors: string[];
  requests: string[];
  sections: { variable: string; text: string; svg: boolean; rows: number; changed: number }[];
  count: number;
  highlighted: number;
}

let browser: Browser | undefined;

/** Opens `file` in the browser: what it logged, requested and shows. */
async function show(file: string): Promise<Shown> {
  const page = await (browser as Browser).newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`failed: ${r.url()}`));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  const sections = await page.$$eval('section.race', (all) =>
    all.map((s) => ({
      variable: s.getAttribute('data-variable') ?? '',
      // biome-ignore lint/performance/useDomNodeTextContent: what the page shows, as rendered (hidden text left out)
      text: (s as HTMLElement).innerText,
      svg: s.querySelector('svg.timeline') !== null,
      rows: s.querySelectorAll('table.lockset tbody tr').length,
      changed: s.querySelectorAll('table.lockset tbody tr.changed').length,
    })),
  );
  const count = Number(await page.$eval('#count', (h) => h.getAttribute('data-races')));
  // the script links a timeline mark to its lockset row
  let highlighted = 0;
  if (await page.$('svg.timeline .mark.access')) {
    await page.hover('svg.timeline .mark.access');
    highlighted = await page.$$eval('tr.hl', (r) => r.length);
  }
  await page.close();
  return { errors, requests, sections, count, highlighted };
}

/**
 * Opens page `html` of the races of JSON report `json` and checks what every page of races shows: no error, no
 * request, each race in order with a timeline and both accesses' locations, a mark that highlights its row.
 * @returns each race's section, with the race.
 */
async function everyRace(html: string, json: string) {
  const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
  const shown = await show(html);
  assert.deepEqual(shown.errors, []);
  assert.deepEqual(shown.requests, [pathToFileURL(html).href]);
  assert.equal(shown.count, report.races.length);
  assert.deepEqual(
    shown.sections.map((s) => s.variable),
    report.races.map((x) => x.variable),
  );
  assert.ok(shown.highlighted >= 1, 'hovering an access highlights its row');
  return shown.sections.map((s, i) => {
    const race = report.races[i];
    assert.ok(s.svg, `${s.variable}: a timeline`);
    assert.ok(s.text.includes(race.current.location) && s.text.includes(race.previous.location));
    return { s, race };
  });
}

describe('the HTML page in a headless browser', { skip: NO_BROWSER }, () => {
  before(async () => {
    const { default: puppeteer } = await import('puppeteer-core');
    browser = await puppeteer.launch({
      executablePath: BROWSER,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'], // CI runs as root
    });
  });
  after(async () => {
    await browser?.close();
  });

  test('check: every race, both accesses, the timelines and the lockset table; no error, no request', {
    timeout: 60_000,
  }, async () => {
    const html = tempPath('ftp.html');
    const json = tempPath('ftp.json');
    const r = cli([
      'check',
      '--html',
      html,
      '--report',
      json,
      join(ROOT, 'examples', 'figure1-ftpserver.trace'),
    ]);
    assert.equal(r.status, 0, r.stderr);
    for (const { s, race } of await everyRace(html, json)) {
      assert.match(s.text, /source not readable: Connection\.java/); // the Java sources are not in the repository
      assert.match(s.text, new RegExp(`${race.current.thread} ∉ \\{T1\\}: no happens-before, a race`));
    }
  });

  test('check: the lockset grows along a release, the source lines of a readable file', {
    timeout: 60_000,
  }, async () => {
    const src = join(ROOT, 'test', 'fixtures', 'cli', 'two-races.mjs');
    const trace = tempFile(
      'grow.std',
      [
        `T1|w(x)|${src}:8`,
        'T1|acq(l)|',
        'T1|rel(l)|',
        'T2|acq(m)|',
        'T2|rel(m)|',
        `T2|w(x)|${src}:16`,
        '',
      ].join('\n'),
    );
    const html = tempPath('grow.html');
    const r = cli(['check', '--html', html, trace]);
    assert.equal(r.status, 0, r.stderr);
    const shown = await show(html);
    assert.deepEqual(shown.errors, []);
    assert.equal(shown.sections.length, 1);
    const [s] = shown.sections;
    assert.equal(s.rows, 6); // the previous access, 4 events, the racing access
    assert.equal(s.changed, 2); // the previous access ({T1}) and rel(l) ({T1, l})
    assert.match(s.text, /T2 ∉ \{T1, l\}: no happens-before, a race/);
    assert.match(s.text, /a\[0\] = 1; \/\/ after the fork/); // line 8 of the source
    assert.match(s.text, /workerData\[0\] = 7;/); // line 16
  });

  test('run: every race with its source lines, and what a live run cannot show', {
    timeout: 60_000,
  }, async () => {
    const html = tempPath('live.html');
    const r = await cliAsync([
      'run',
      '--on-race=report',
      '--html',
      html,
      join(ROOT, 'test', 'fixtures', 'cli', 'two-races.mjs'),
    ]);
    assert.equal(r.code, 0, r.stderr);
    const shown = await show(html);
    assert.deepEqual(shown.errors, []);
    assert.equal(shown.count, 2);
    assert.equal(shown.sections.length, 2);
    for (const s of shown.sections) {
      assert.match(s.text, /workerData\[[02]\] = 7;/);
      assert.match(s.text, /Not available for a live run without --record/);
      assert.ok(!s.svg);
    }
  });

  test('run --record: the same picture as check --html — source lines, timelines, the lockset’s evolution', {
    timeout: 120_000,
  }, async () => {
    const html = tempPath('live-recorded.html');
    const json = tempPath('live-recorded.json');
    const program = join(ROOT, 'examples', 'ftp-connection.mjs');
    const r = await cliAsync([
      'run',
      '--on-race=report',
      '--html',
      html,
      '--report',
      json,
      '--record',
      tempPath('live-recorded.trace'),
      program,
    ]);
    assert.equal(r.code, 0, r.stderr);
    for (const { s, race } of await everyRace(html, json)) {
      assert.ok(s.rows >= 2 && s.changed >= 1, `${s.variable}: the lockset table`);
      assert.doesNotMatch(s.text, /source not readable|Not available|Not in the recording/);
      assert.match(s.text, new RegExp(`${race.current.thread} ∉ \\{[^}]*\\}: no happens-before, a race`));
      assert.match(s.text, /decided by: nothing orders T\d+'s (read|write) before T\d+'s (read|write)/);
    }
  });

  test('no race: a page that says so', { timeout: 60_000 }, async () => {
    const html = tempPath('none.html');
    const r = cli(['check', '--html', html, join(ROOT, 'examples', 'example2-ownership.trace')]);
    assert.equal(r.status, 0, r.stderr);
    const shown = await show(html);
    assert.deepEqual(shown.errors, []);
    assert.equal(shown.count, 0);
    assert.equal(shown.sections.length, 0);
  });
});
