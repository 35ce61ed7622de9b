/**
 * `npm run bench:stm` (bench/stm.ts, issue 23 §4) at a tiny size: it runs the transactional Multiset in its three
 * modes and prints its table; no timing is asserted. With one worker the program's counts do not depend on the
 * interleaving, so every mode makes the same accesses and transactions; the `internals` mode
 * (`GOLDILOCKS_STM=internals`) checks the STM's own atomic operations too, so the runtime checks more accesses.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');

test('bench:stm runs the three modes and prints the table', { timeout: 300_000 }, async () => {
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bench/stm.ts', '--ops', '40', '--workers', '1,2'],
      { cwd: ROOT, timeout: 280_000, encoding: 'utf8' },
      (err, out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out)),
    ),
  );
  assert.match(
    stdout,
    /^### Transactional Multiset \(PLDI'07 §6\.1\), 40 operations per worker, capacity 10$/m,
  );
  const rows = stdout
    .split('\n')
    .filter((l) => /^\| \d/.test(l))
    .map((l) => l.split('|').map((c) => c.trim()));
  // columns: '', workers, mode, time, × plain, accesses, transactions, commits, aborts, checked, races, ''
  assert.deepEqual(
    rows.map((r) => `${r[1]} ${r[2]}`),
    ['1 plain', '1 goldilocks', '1 internals', '2 plain', '2 goldilocks', '2 internals'],
  );
  for (const r of rows) {
    assert.match(r[3], /^\d+$/, `a time: ${r.join('|')}`);
    assert.equal(r[10], r[2] === 'plain' ? '–' : '0', `no race: ${r.join('|')}`);
  }
  const [plain, goldilocks, internals] = rows;
  assert.equal(plain[4], '1.00');
  assert.deepEqual(goldilocks.slice(5, 9), plain.slice(5, 9), 'one worker: the same counts');
  assert.deepEqual(internals.slice(5, 9), plain.slice(5, 9), 'one worker: the same counts');
  const num = (s: string) => Number(s.replace(/,/g, ''));
  assert.ok(
    num(internals[9]) > num(goldilocks[9]),
    `the STM's internals checked: ${internals[9]} > ${goldilocks[9]}`,
  );
});
