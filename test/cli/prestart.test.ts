/**
 * The parser thread `goldilocks check FILE` starts before it parses its arguments (src/cli/prestart.ts, issue 24 §3):
 * taken by the check, the output is what reading in one thread gives; not taken (a usage error, another file, options
 * the guess does not see), it is stopped and the process exits.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { CLI, tempFile } from '../helpers/helpers.js';

/** A 12 MB trace (`auto` reads it by a parser thread when a core is free) with a race on x. */
const lines = ['T0|fork(T1)|1'];
for (let i = 0; i < 600_000; i++) lines.push(`T${i % 2}|w(v${i % 1000})|${i % 97}`);
lines.push('T1|w(x)|5', 'T0|w(x)|6');
const BIG = tempFile('big.std', `${lines.join('\n')}\n`);
const SMALL = tempFile('small.std', 'T0|fork(T1)|1\nT0|w(x)|2\nT1|w(x)|3\n');

/** The CLI's exit status and output, with the timing of the summary taken out; fails the test if it does not exit. */
function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.error, undefined, `goldilocks ${args.join(' ')} did not exit: ${r.error}`);
  return {
    status: r.status,
    stdout: r.stdout.replace(/[\d.]+ m?s, [\d.,]+[MK]? events\/s/g, 'TIME'),
    stderr: r.stderr,
  };
}

describe('goldilocks check: the parser thread started before the arguments are parsed', () => {
  it('taken by the check: the same report as reading in one thread', () => {
    const off = run(['check', '--no-color', '--pipeline', 'off', BIG]);
    const auto = run(['check', '--no-color', BIG]);
    assert.equal(auto.status, off.status);
    assert.equal(auto.stdout, off.stdout);
    assert.match(auto.stdout, /\bx\b/);
  });

  it('not taken — a usage error, another trace named last, a format given — stopped: the process exits as before', () => {
    const bad = run(['check', '--detector', 'none-such', BIG]);
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /--detector: unknown detector 'none-such'/);
    // the last argument is not the trace: the thread started for it is stopped, the small trace is checked
    const other = run(['check', '--no-color', SMALL, BIG]);
    assert.notEqual(other.status, null);
    const format = run(['check', '--no-color', '--format', 'std', BIG]);
    assert.equal(format.stdout, run(['check', '--no-color', '--pipeline', 'off', BIG]).stdout);
  });
});
