/**
 * A git revision of this project, compiled: what the side-by-side benchmarks (bench/compare.ts,
 * bench/instructions.ts) compare the working tree's `dist/` with.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../scripts/child.js';

/**
 * Checks revision `rev` out with `git worktree` into the system's temporary directory, as goldilocks-compare-<sha>/
 * (reused; `git worktree prune` forgets it once deleted), and compiles it with this project's TypeScript (its
 * node_modules linked in).
 * @returns the revision's full commit id and its compiled `dist/` folder.
 * @throws Error (from git) when `rev` names no commit.
 */
export function buildRevision(rev: string): { sha: string; dist: string } {
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  const sha = git('rev-parse', '--verify', `${rev}^{commit}`);
  const tree = path.join(tmpdir(), `goldilocks-compare-${sha.slice(0, 12)}`);
  if (!existsSync(tree)) {
    git('worktree', 'prune');
    git('worktree', 'add', '--detach', tree, sha);
  }
  // the build's packages are this checkout's; a link left dangling by a checkout since removed is made anew
  const modules = path.join(tree, 'node_modules');
  if (!existsSync(modules)) {
    rmSync(modules, { force: true });
    symlinkSync(path.join(ROOT, 'node_modules'), modules);
  }
  if (!existsSync(path.join(tree, 'dist', 'check.js'))) {
    console.error(`building ${rev} (${sha.slice(0, 12)}) in ${tree}`);
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tree],
      {
        stdio: 'inherit',
      },
    );
  }
  return { sha, dist: path.join(tree, 'dist') };
}
