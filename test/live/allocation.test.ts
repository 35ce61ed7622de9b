/**
 * Allocation sites in race reports (issue 25 §1): each race names where its buffer was made — the
 * `new SharedArrayBuffer(...)` or `new WebAssembly.Memory(...)` with its line and column, and the thread that ran
 * it, also when the racing threads received the buffer in a message — in the text (`memory:` line) and in JSON
 * (`races[].allocation`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const PROGRAM = join(ROOT, 'test', 'fixtures', 'report', 'allocations.mjs');

describe('allocation sites', () => {
  test('each race names its buffer’s allocation site and thread, in JSON and text', {
    timeout: 60_000,
  }, async () => {
    const report = tempPath('allocations.json');
    const r = await cliAsync(['run', '--on-race=report', '--report', report, PROGRAM]);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
    const byType = new Map(j.races.map((race) => [race.memory?.elementType, race]));
    assert.deepEqual([...byType.keys()].sort(), ['Float64Array', 'Int32Array', 'Uint8Array']);

    const a = byType.get('Int32Array')!;
    assert.deepEqual(a.allocation, {
      location: `${PROGRAM}:7:28`,
      thread: 'T0',
      kind: 'SharedArrayBuffer',
      bytes: 16,
    });
    assert.equal(a.memory?.index, 1); // of a view starting at byte 4
    assert.equal(a.memory?.start, 8);

    const b = byType.get('Float64Array')!; // made by the worker, raced on in the main thread after a message
    const worker = [b.current.thread, b.previous.thread].find((t) => t !== 'T0');
    assert.deepEqual(b.allocation, {
      location: `${PROGRAM}:17:30`,
      thread: worker,
      kind: 'SharedArrayBuffer',
      bytes: 24,
    });

    const m = byType.get('Uint8Array')!;
    assert.deepEqual(m.allocation, {
      location: `${PROGRAM}:8:18`,
      thread: 'T0',
      kind: 'WebAssembly.Memory',
      bytes: 65536,
    });

    assert.match(
      r.stderr,
      new RegExp(
        `memory: Int32Array element \\[1\\] \\(bytes 8–11\\) of a SharedArrayBuffer of 16 bytes created by thread T0 at ${PROGRAM}:7:28`,
      ),
    );
    assert.match(
      r.stderr,
      new RegExp(
        `memory: Float64Array element \\[1\\] \\(bytes 8–15\\) of a SharedArrayBuffer of 24 bytes created by thread ${worker} at `,
      ),
    );
    assert.match(
      r.stderr,
      /memory: Uint8Array element \[5\] \(byte 5\) of a WebAssembly.Memory of 65,536 bytes created by thread T0 at /,
    );
  });

  test('a slice is a new buffer made at the slice call; a growable buffer by its most bytes; a Buffer over a SharedArrayBuffer is a view (the buffer’s site); a buffer made by uninstrumented code, said so', {
    timeout: 60_000,
  }, async () => {
    const program = join(ROOT, 'test', 'fixtures', 'report', 'allocation-kinds.mjs');
    const report = tempPath('allocation-kinds.json');
    const r = await cliAsync(['run', '--on-race=report', '--report', report, program]);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
    const byLine = new Map(j.races.map((race) => [race.current.location.split(':').at(-2), race]));
    const at = (line: string) => byLine.get(line)?.allocation;
    const made = (site: string, bytes: number) => ({
      location: `${program}:${site}`,
      thread: 'T0',
      kind: 'SharedArrayBuffer',
      bytes,
    });
    assert.deepEqual(at('24'), made('10:33', 16), r.stderr); // base.slice(8, 24)
    assert.deepEqual(at('25'), made('11:20', 64)); // new SharedArrayBuffer(8, { maxByteLength: 64 })
    assert.deepEqual(at('26'), made('14:30', 8)); // Buffer.from(new SharedArrayBuffer(8)): the buffer's site
    assert.deepEqual(at('27'), { location: '', thread: 'T0', kind: 'SharedArrayBuffer', bytes: 8 });
    assert.match(
      r.stderr,
      /memory: Int32Array element \[1\] \(bytes 4–7\) of a SharedArrayBuffer of 8 bytes created outside instrumented code \(first met by thread T0\)\n/,
    );
    assert.match(
      r.stderr,
      /of a SharedArrayBuffer of 16 bytes created by thread T0 at .*allocation-kinds\.mjs:10:33\n/,
    );
  });
});
