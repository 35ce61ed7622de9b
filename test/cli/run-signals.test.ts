/**
 * `goldilocks run` passes a SIGTERM on to the program it runs (src/node/run.ts): the program ends as under plain node,
 * and the CLI with the program's exit code (128 + 15), instead of leaving the program running on its own.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, ROOT, tempPath } from '../helpers/helpers.js';

const FOREVER = join(ROOT, 'test', 'fixtures', 'cli', 'forever.mjs');

/** Whether process `pid` exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `goldilocks run ...args` (the program writes its pid to `pidFile`), SIGTERMs the CLI: its exit code, the pid. */
async function terminated(args: string[], pidFile: string): Promise<{ code: number | null; pid: number }> {
  const cli = spawn(process.execPath, [CLI, 'run', ...args], { stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => cli.on('exit', (code) => resolve(code)));
  for (let i = 0; i < 600 && !existsSync(pidFile); i++) await sleep(50);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  cli.kill('SIGTERM');
  const code = await exited;
  for (let i = 0; i < 100 && alive(pid); i++) await sleep(50);
  return { code, pid };
}

describe('goldilocks run and SIGTERM', () => {
  test('the program is ended too, and the CLI exits with its code (file mode and command mode)', {
    timeout: 90_000,
  }, async () => {
    for (const mode of [[], ['--', 'node']]) {
      const pidFile = tempPath('pid');
      const { code, pid } = await terminated([...mode, FOREVER, pidFile], pidFile);
      assert.equal(code, 128 + 15, `${mode.join(' ')}: exit code`);
      assert.equal(alive(pid), false, `${mode.join(' ')}: the program (pid ${pid}) still runs`);
    }
  });
});
