/**
 * The transform cache: rewritten modules kept on disk across threads, processes and runs (issue 24 §2), as Babel's
 * and ts-node's transform caches keep theirs, so that a worker (and every thread's loader) rewrites a module once,
 * not at each start.
 *
 * **Key**: SHA-256 of the runtime's version — this package's version and the contents of the rewriter's own files
 * (`../instrument/`, `../hooks/names`), so a rebuilt rewriter never reads an older entry — the instrumentation options (file name as
 * sites name it, module or script) and the source. A changed file is a new key; entries of old contents stay
 * until the directory is cleared.
 *
 * **Entry**: one file named by the key: a JSON header line `{"key","length","sha1","warnings"}` and the rewritten code.
 * Read, it must name its key, and the code must have the header's length and SHA-1: anything else (a truncated,
 * corrupt or foreign file) is a miss, and the module is rewritten and the entry written again. Written atomically:
 * to a temporary file of a name unique to the process and thread, then renamed over the entry (POSIX `rename`
 * replaces it in one step), so concurrent writers of one key (parallel workers, processes) leave one whole entry,
 * and a reader never sees half of one. Errors of the cache (an unwritable directory, a full disk) are never the
 * program's: the cache is then skipped.
 *
 * **Where** (`GOLDILOCKS_CACHE`): `off` disables it; a path names its directory; unset, it is
 * `$XDG_CACHE_HOME/goldilocks` (else `~/.cache/goldilocks`), else `os.tmpdir()/goldilocks-cache-<uid>` when the home
 * directory is not writable.
 *
 * **Once per process** (issue 24 §2, worker start-up): the directory and the rewriter's version are found by the main
 * thread ({@link cacheSetup}, which `./register.ts` calls before any other thread starts) and handed to every other
 * thread — workers, loader-hooks threads — through `worker_threads` environment data, rather than hashed again in
 * each (~3 ms a thread). `node:crypto` and `node:os` are loaded on first use: a worker whose modules are all ES
 * modules (keyed in its loader-hooks thread) never loads them.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getEnvironmentData, isMainThread, setEnvironmentData, threadId } from 'node:worker_threads';
import { settings } from './settings.js';

const require = createRequire(import.meta.url);
let crypto: typeof import('node:crypto') | undefined;
/** A new hash of `algorithm` (node:crypto, loaded on the first call). */
function createHash(algorithm: string): import('node:crypto').Hash {
  crypto ??= require('node:crypto') as typeof import('node:crypto');
  return crypto.createHash(algorithm);
}

/** A cached rewrite: the code and the rewriter's warnings for it. */
export interface CachedTransform {
  code: string;
  warnings: string[];
}

/** The rewriter's own files: its folder, and the hook names it writes (`../hooks/names`). */
const REWRITER_FILES: [folder: string, name: RegExp][] = [
  ['../instrument/', /^[^.]+\.[jt]s$/],
  ['../hooks/', /^names\.[jt]s$/],
];

/**
 * The version of the rewriter that produced an entry: this package's version and the contents of the rewriter's
 * files (JavaScript in the build, TypeScript under tsx).
 */
function rewriterVersion(): string {
  const h = createHash('sha256');
  const pkg = new URL('../../package.json', import.meta.url);
  try {
    h.update((JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version ?? '');
  } catch {
    // no package.json beside the build: the rewriter's files alone
  }
  for (const [folder, files] of REWRITER_FILES) {
    const dir = new URL(folder, import.meta.url);
    for (const name of readdirSync(dir).sort()) {
      if (!files.test(name)) continue;
      h.update(name);
      h.update(readFileSync(new URL(name, dir)));
    }
  }
  return h.digest('hex');
}

/** The process's transform cache: its directory (null when the cache is off) and the rewriter's version. */
export interface CacheSetup {
  dir: string | null;
  version: string;
}

/** Environment-data key of the main thread's {@link CacheSetup}. */
const SETUP_KEY = 'goldilocks.transformCache';

let setup: CacheSetup | undefined;

/**
 * This process's {@link CacheSetup} (see the file header): the main thread's, found on its first call there (and then
 * published to the threads it starts); a thread started without it (none under `./register.ts`) finds its own.
 */
export function cacheSetup(): CacheSetup {
  if (setup !== undefined) return setup;
  // the main thread's, published by its first call (in the main thread too: a second instance of this module, in
  // the build's bundle of ./setup.ts, finds it there)
  const inherited = getEnvironmentData(SETUP_KEY) as CacheSetup | undefined;
  if (inherited !== undefined) setup = inherited;
  else {
    const dir = cacheDirectory();
    setup = { dir, version: dir === null ? '' : rewriterVersion() };
    if (isMainThread) setEnvironmentData(SETUP_KEY, setup as never);
  }
  return setup;
}

/** Environment-data key of the main thread's cache directory ({@link cacheDirectory}). */
const DIR_KEY = 'goldilocks.cacheDir';

let directory: string | null | undefined;

/**
 * The cache's directory (see the file header), null when it is off, without the rewriter's version that
 * {@link cacheSetup} hashes: what `goldilocks check` needs for its code cache (`./code-cache.ts`). Found once per
 * process, by the main thread's first call, and inherited by the threads it starts.
 */
export function cacheDirectory(): string | null {
  if (directory !== undefined) return directory;
  const inherited = getEnvironmentData(DIR_KEY) as string | null | undefined;
  directory = inherited !== undefined ? inherited : (cacheDir(settings.GOLDILOCKS_CACHE) ?? null);
  if (isMainThread) setEnvironmentData(DIR_KEY, directory as never);
  return directory;
}

/** The key of the rewrite of `source` with the options `options` (see the file header). */
export function cacheKey(source: string, options: object): string {
  return createHash('sha256')
    .update(cacheSetup().version)
    .update('\0')
    .update(JSON.stringify(options))
    .update('\0')
    .update(source)
    .digest('hex');
}

/** The cache directory for the setting `GOLDILOCKS_CACHE` = `setting`, or undefined when the cache is off. */
function cacheDir(setting: string | undefined): string | undefined {
  if (setting === 'off') return undefined;
  if (setting) return setting;
  const os = require('node:os') as typeof import('node:os');
  const xdg = process.env.XDG_CACHE_HOME;
  const home = os.homedir();
  const candidates = [
    ...(xdg ? [join(xdg, 'goldilocks')] : []),
    ...(home ? [join(home, '.cache', 'goldilocks')] : []),
    join(os.tmpdir(), `goldilocks-cache-${os.userInfo().uid}`),
  ];
  for (const dir of candidates) {
    try {
      mkdirSync(dir, { recursive: true });
      return dir;
    } catch {
      // not writable: the next one
    }
  }
  return undefined;
}

const sha1 = (code: string): string => createHash('sha1').update(code).digest('hex');

/** The entry of `key` in `dir`, or undefined when there is none or it is not whole (see the file header). */
export function readCached(dir: string, key: string): CachedTransform | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, key), 'utf8');
  } catch {
    return undefined;
  }
  const eol = text.indexOf('\n');
  if (eol < 0) return undefined;
  try {
    const h = JSON.parse(text.slice(0, eol)) as {
      key?: unknown;
      length?: unknown;
      sha1?: unknown;
      warnings?: unknown;
    };
    const code = text.slice(eol + 1);
    if (
      h.key !== key ||
      h.length !== code.length ||
      h.sha1 !== sha1(code) ||
      !Array.isArray(h.warnings) ||
      !h.warnings.every((w) => typeof w === 'string')
    )
      return undefined;
    return { code, warnings: h.warnings as string[] };
  } catch {
    return undefined;
  }
}

/** Writes the entry of `key` into `dir` atomically ({@link writeAtomically}); never throws. */
export function writeCached(dir: string, key: string, entry: CachedTransform): void {
  const header = JSON.stringify({
    key,
    length: entry.code.length,
    sha1: sha1(entry.code),
    warnings: entry.warnings,
  });
  writeAtomically(join(dir, key), `${header}\n${entry.code}`);
}

let serial = 0;

/**
 * Writes `data` to the file `path` atomically: to a temporary file of a name unique to the process and thread, then
 * renamed over `path` (see the file header); its directory is made when missing (a `GOLDILOCKS_CACHE` path is made on
 * the first write). Never throws (on an error the write is skipped).
 */
export function writeAtomically(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.${threadId}.${serial++}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the cache is skipped
    }
  }
}
