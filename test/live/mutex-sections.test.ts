/**
 * A goldilocks/sync Mutex under the runtime: the compare-exchange that takes the lock and its acquire cell are
 * appended in one list-lock section, as are the release cell and the compare-exchange that may give the lock up
 * (`SyncObserver.acquireByCompareExchange`, `releaseByCompareExchange`; src/live/sync-observer.ts). In the recorded
 * trace (docs/RUNTIME.md "Recording": the synchronization event list in order) no other thread's event comes between
 * the two, while two workers contend for the mutex and a third appends cells of its own.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { cli, cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const PROGRAM = join(ROOT, 'test', 'fixtures', 'atomics', 'mutex-sections.mjs');
/** Lock/unlock rounds of each of the fixture's two lockers (its ROUNDS). */
const ROUNDS = 2000;
const LIMIT = { timeout: 120_000 };

describe('a Mutex lock or unlock under the runtime', () => {
  test('appends its compare-exchange and its lock cell with no other event between them', LIMIT, async () => {
    const report = tempPath('sections.json');
    const trace = tempPath('sections.trace');
    const r = await cliAsync(['run', '--report', report, '--record', trace, PROGRAM]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(readFileSync(report, 'utf8')) as JsonReport).races, []);
    const text = tempPath('sections.ext');
    const ext = cli(['convert', trace, '--to', 'ext', '-o', text]);
    assert.equal(ext.status, 0, ext.stderr);
    /** [thread, event] of each trace line. */
    const events = readFileSync(text, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split('|').slice(0, 2) as [string, string]);
    const locks = new Set(events.flatMap(([, e]) => /^acq\((lock@sab#\d+\+0)\)$/.exec(e)?.[1] ?? []));
    assert.equal(locks.size, 1, `one mutex: ${[...locks]}`);
    const [lock] = locks;
    const word = `atomic@${lock.slice('lock@'.length)}:4`;
    let acquires = 0;
    let releases = 0;
    for (let i = 0; i < events.length; i++) {
      const [t, e] = events[i];
      if (e === `acq(${lock})`) {
        acquires++;
        // right after the same thread's compare-exchange that wrote the word (took the lock)
        assert.deepEqual(events[i - 1], [t, `armw(${word})`], `event ${i}: ${e} of ${t}`);
      } else if (e === `rel(${lock})`) {
        releases++;
        // right before the same thread's compare-exchange of the word (its data access, then its cell)
        const [u, next] = events[i + 1] ?? [];
        assert.equal(u, t, `event ${i}: ${e} of ${t}, then ${next} of ${u}`);
        assert.match(next, new RegExp(`^a[rw]d\\(.*,${word.replace(/[+#]/g, '\\$&')}\\)$`));
      }
    }
    assert.equal(acquires, 2 * ROUNDS);
    assert.equal(releases, 2 * ROUNDS);
  });
});
