/**
 * The Java Grande kernels of bench/kernels/ (plain node, no runtime): every kernel accepts each size of
 * bench/kernels/lib.mjs SIZES, large included (issue 24 §1 "Scale": every kernel has a size sharing ≥ 512 MiB),
 * and rejects any other with exit code 2; at size tiny each one's parallel result equals its sequential
 * computation (`--verify`) at 1, 2 and 3 workers, and its result line reports the bytes it shared.
 * Size large itself (512 MiB and more, seconds to minutes per kernel) is run by `bench/runtime.ts --size large`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../helpers/helpers.js';

const DIR = join(ROOT, 'bench', 'kernels');
/** Every kernel: each .mjs file of bench/kernels/ but lib.mjs, its helpers. */
const KERNELS = readdirSync(DIR)
  .filter((f) => f.endsWith('.mjs') && f !== 'lib.mjs')
  .map((f) => f.slice(0, -'.mjs'.length));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function kernel(name: string, args: string[]): Promise<Outcome> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(DIR, `${name}.mjs`), ...args],
      { timeout: 120_000, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: number | string }) | null;
        done({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout, stderr });
      },
    );
  });
}

describe('bench/kernels', async () => {
  const { SIZES } = (await import(join(DIR, 'lib.mjs'))) as { SIZES: string[] };

  test('SIZES offers large, and there are the seven kernels', () => {
    assert.ok(SIZES.includes('large'));
    assert.equal(KERNELS.length, 7, KERNELS.join());
  });

  for (const name of KERNELS) {
    test(`${name}: its usage lists every size, and an unknown size exits with code 2`, async () => {
      const help = await kernel(name, ['--help']);
      assert.equal(help.code, 0, help.stderr);
      assert.ok(help.stdout.includes(`--size ${SIZES.join('|')}`), help.stdout);
      assert.match(help.stdout, /\|large\]/);
      const bad = await kernel(name, ['--size', 'huge']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, new RegExp(`one of ${SIZES.join(', ')}, not huge`));
    });

    for (const workers of [1, 2, 3])
      test(`${name}: size tiny at ${workers} workers equals its sequential computation`, async () => {
        const o = await kernel(name, ['--size', 'tiny', '--workers', String(workers), '--verify']);
        assert.equal(o.code, 0, o.stderr);
        const line = JSON.parse(o.stdout.trim()) as {
          kernel: string;
          verified: boolean;
          sharedBytes: number;
        };
        assert.equal(line.kernel, name);
        assert.equal(line.verified, true);
        assert.ok(line.sharedBytes > 0, o.stdout);
      });
  }
});
