/**
 * The text renderer (src/report/text.ts) on race records: the live `memory:` line, lockset and decision in the
 * program's words (issue 25 §1), and a record without live information (`goldilocks check`'s) printed as before.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RaceRecord } from '../../src/report/race.js';
import { colorsFor, decision, memoryText, textRace } from '../../src/report/text.js';

const offline: RaceRecord = {
  variable: 'conn.m_writer',
  current: {
    index: 16,
    thread: 'T2',
    access: 'write',
    transactional: false,
    atomic: false,
    location: 'Connection.java:close:9',
  },
  previous: {
    index: 9,
    thread: 'T1',
    access: 'read',
    transactional: false,
    atomic: false,
    location: 'Connection.java:run:10',
  },
  lockset: ['T1'],
  detail: 'lockset walk over 2 synchronization events: T2 ∉ LS(conn.m_writer)',
  precise: true,
};

describe('text of a race', () => {
  test('an offline race reads as before: no memory line', () => {
    assert.equal(
      textRace(offline, { detector: 'goldilocks', colors: false, count: 2 }),
      [
        '==================',
        'WARNING: goldilocks: data race on conn.m_writer',
        '  write by thread T2 at Connection.java:close:9 (event 16)',
        '  previous read by thread T1 at Connection.java:run:10 (event 9)',
        '  lockset: {T1}',
        '  decided by: lockset walk over 2 synchronization events: T2 ∉ LS(conn.m_writer)',
        '  (this pair of locations raced 2 times)',
        '==================',
        '',
      ].join('\n'),
    );
  });

  test('an element access: its index and bytes, the buffer’s kind, length, thread and site', () => {
    const m = { buffer: 3, byteOffset: 12, size: 4, elementType: 'Int32Array', index: 3, start: 12 };
    const a = { location: 'ftp-connection.mjs:17:31', thread: 'T0', kind: 'SharedArrayBuffer', bytes: 16 };
    assert.equal(
      memoryText(m, a),
      'Int32Array element [3] (bytes 12–15) of a SharedArrayBuffer of 16 bytes created by thread T0 at ftp-connection.mjs:17:31',
    );
    const race = { ...offline, variable: 'sab#3+12', memory: m, allocation: a };
    assert.match(
      textRace(race, { detector: 'goldilocks', colors: false }),
      /\n {2}previous read .*\n {2}memory: Int32Array element \[3\] \(bytes 12–15\) of a SharedArrayBuffer .*\n {2}lockset: /,
    );
  });

  test('other accesses by their first racing byte; a buffer made where the runtime did not see it', () => {
    assert.equal(
      memoryText(
        { buffer: 2, byteOffset: 1, size: 1, elementType: 'Uint8Array', index: 1, start: 1 },
        { location: '', thread: 'T2', kind: 'WebAssembly.Memory', bytes: 65536 },
      ),
      'Uint8Array element [1] (byte 1) of a WebAssembly.Memory of 65,536 bytes created outside instrumented code (first met by thread T2)',
    );
    assert.equal(
      memoryText({ buffer: 2, byteOffset: 8, size: 16, elementType: 'TypedArray#set' }, undefined),
      'TypedArray#set of 16 bytes at byte 8 of sab#2',
    );
  });

  test('live: the lockset in the program’s words, and the decision as one plain sentence', () => {
    const race: RaceRecord = {
      ...offline,
      variable: 'sab#3+0',
      memory: { buffer: 3, byteOffset: 0, size: 4, elementType: 'Int32Array', index: 0, start: 0 },
      lockset: ['T0', 'lock@sab#2+0'],
      locksetNames: ['T0', "Mutex 'connection'"],
      detail: 'lockset walk over 4 synchronization events: T2 ∉ LS',
    };
    const text = textRace(race, { detector: 'goldilocks', colors: false });
    assert.match(text, /\n {2}lockset: \{T0, Mutex 'connection'\}\n/);
    assert.equal(
      decision(race),
      "nothing orders T1's read before T2's write: no lock, Atomics operation, message, or thread start or join " +
        'hands the memory from T1 to T2 in between (lockset walk over 4 synchronization events: T2 ∉ LS)',
    );
    assert.equal(decision(offline), offline.detail); // check's words stay the detector's
  });

  test('live: the messages and worker starts that handed the memory on, named in the decision', () => {
    const race: RaceRecord = {
      ...offline,
      variable: 'sab#3+0',
      memory: { buffer: 3, byteOffset: 0, size: 4, elementType: 'Int32Array', index: 0, start: 0 },
      lockset: ['1', '3', '17179869189'],
      locksetNames: [
        'T1 (Worker started by T0 at a.mjs:2:3)', // the previous access's thread (rule 1): not handed anything
        'T3 (Worker started by T0 at a.mjs:5:3)',
        'postMessage from T1 at b.mjs:7:10',
      ],
      detail: 'lockset walk over 9 synchronization events: T2 ∉ LS',
    };
    assert.equal(
      decision(race),
      "nothing orders T1's read before T2's write: no lock, Atomics operation, message, or thread start or join " +
        'hands the memory from T1 to T2 in between; it was handed on by T3 (Worker started by T0 at a.mjs:5:3) and ' +
        'by postMessage from T1 at b.mjs:7:10, not to T2 (lockset walk over 9 synchronization events: T2 ∉ LS)',
    );
  });

  test('colour: on a terminal, never with NO_COLOR, always with FORCE_COLOR; ANSI codes only when on', () => {
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    assert.equal(colorsFor(tty, {}), true);
    assert.equal(colorsFor(pipe, {}), false);
    assert.equal(colorsFor(tty, { TERM: 'dumb' }), false);
    assert.equal(colorsFor(tty, { NO_COLOR: '1' }), false);
    assert.equal(colorsFor(tty, { NO_COLOR: '1', FORCE_COLOR: '1' }), false);
    assert.equal(colorsFor(tty, { NO_COLOR: '' }), true); // empty: not set (no-color.org)
    assert.equal(colorsFor(pipe, { FORCE_COLOR: '1' }), true);
    assert.equal(colorsFor(tty, { FORCE_COLOR: '0' }), false);
    const ESC = '\u001b[';
    assert.ok(textRace(offline, { detector: 'goldilocks', colors: true }).includes(`${ESC}31mWARNING`));
    assert.ok(!textRace(offline, { detector: 'goldilocks', colors: false }).includes(ESC));
  });
});
