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
 * (reused; `git worktree prune` forgets it once deleted), and builds it with this checkout's packages (its
 * node_modules linked in): its own `npm run build` where it bundles its runtime, else this project's TypeScript.
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
    // the revision's own build (since 2026-11-26 also bundling its runtime: scripts/bundle.ts), else tsc alone
    const bundles = existsSync(path.join(tree, 'scripts', 'bundle.ts'));
    execFileSync(
      bundles ? 'npm' : process.execPath,
      bundles ? ['run', 'build'] : [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tree],
      { cwd: tree, stdio: 'inherit' },
    );
  }
  return { sha, dist: path.join(tree, 'dist') };
}
