/**
 * The paper's evaluation programs under `goldilocks jumble` (issue 22 §4; Flanagan & Freund, PLDI 2010, Figure 9):
 * the JavaScript versions in examples/jumble/ get the paper's classification — its destructive races are found by
 * at least one heuristic while both controls (`none`, `sc`) never fail, and its benign races never fail. One run
 * per configuration keeps this short; docs/RESULTS.md has the full campaign.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { GroupResult } from '../../src/cli/jumble-table.js';
import { cliAsync, ROOT, tempPath } from '../helpers/helpers.js';

const EXAMPLES = join(ROOT, 'examples', 'jumble');
const LIMIT = { timeout: 600_000 };
const ADVERSARIAL = ['oldest', 'obd', 'random', 'rbd'] as const;

/** The groups of a one-run-per-configuration campaign on `program`, and its exit code. */
async function campaign(program: string): Promise<{ code: number | null; groups: GroupResult[] }> {
  const json = tempPath(`${program}.json`);
  const r = await cliAsync(['jumble', '--runs', '1', '--jobs', '2', '--json', json, join(EXAMPLES, program)]);
  const { groups } = JSON.parse(readFileSync(json, 'utf8')) as { groups: GroupResult[] };
  return { code: r.code, groups };
}

function assertDestructive(g: GroupResult): void {
  assert.equal(g.verdict, 'destructive', JSON.stringify(g));
  assert.equal(g.rates.none, 0);
  assert.equal(g.rates.sc, 0);
  assert.ok(
    ADVERSARIAL.some((h) => g.rates[h] > 0),
    JSON.stringify(g.rates),
  );
}

function assertBenign(g: GroupResult): void {
  assert.equal(g.verdict, 'benign', JSON.stringify(g));
  assert.ok(
    Object.values(g.rates).every((rate) => rate === 0),
    JSON.stringify(g.rates),
  );
  assert.ok(g.exercised > 0);
}

describe("the paper's programs under goldilocks jumble", () => {
  test('Figure 2: p.x and p.y destructive, the publication of p benign', LIMIT, async () => {
    const { code, groups } = await campaign('figure2-dcl.mjs');
    assert.equal(code, 1);
    const byOffset = new Map(groups.map((g) => [g.offset, g]));
    assert.deepEqual(
      [...byOffset.keys()].sort((a, b) => a - b),
      [0, 16, 24],
    );
    assertBenign(byOffset.get(0)!); // p
    assertDestructive(byOffset.get(16)!); // p.x
    assertDestructive(byOffset.get(24)!); // p.y
  });

  test('RayTracer: the racy checksum is destructive', LIMIT, async () => {
    const { code, groups } = await campaign('raytracer.mjs');
    assert.equal(code, 1);
    assert.equal(groups.length, 1);
    assertDestructive(groups[0]);
  });

  test('MTRT: the unused thread counter is benign', LIMIT, async () => {
    const { code, groups } = await campaign('mtrt.mjs');
    assert.equal(code, 0);
    assert.equal(groups.length, 1);
    assertBenign(groups[0]);
  });
});
