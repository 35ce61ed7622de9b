/**
 * Sites: where in the program an access happened, as string ids of `file:line:column` in the shared string table
 * (`./memory/state.ts`), the form a race report prints. A rewritten access carries its static site (a local
 * number the hooks map to a location, `../hooks/hooks.ts`); a patched built-in finds its caller's frame in a
 * captured stack ({@link Sites.callerSite}).
 */
import { findSourceMap } from 'node:module';
import type { ThreadHooks } from '../hooks/contract.js';
import type { Callee } from './context.js';
import type { StateViews } from './memory/state.js';
import { putString } from './memory/strings.js';
import { siteText } from './races.js';

/** The URL of this package's `dist/` directory: frames of its files are never a user's call site. */
const RUNTIME_DIR = new URL('../', import.meta.url).href;

/** Error.prepareStackTrace that keeps V8's structured call sites: no stack text is formatted. */
export const structured = (_: Error, sites: NodeJS.CallSite[]) => sites;

/** A frame of Node's own code, of the runtime's, or of no file (a builtin's). */
const internalFrame = (f: NodeJS.CallSite): boolean => {
  const file = f.getFileName() ?? f.getScriptNameOrSourceURL();
  return !file || file.startsWith('node:') || file.startsWith(RUNTIME_DIR);
};

/**
 * How many frames right below `fn` on the current stack are the runtime's own (the hooks' dispatch of a rewritten
 * call, `../hooks/thread.ts`): the program's frames follow them. At most 16 are looked at.
 */
export function runtimeFramesBelow(fn: Callee): number {
  const holder: { stack?: NodeJS.CallSite[] } = {};
  const limit = Error.stackTraceLimit;
  const prepare = Error.prepareStackTrace;
  Error.stackTraceLimit = 16;
  Error.prepareStackTrace = structured;
  try {
    Error.captureStackTrace(holder, fn);
    const frames = holder.stack ?? [];
    let n = 0;
    while (n < frames.length && (frames[n].getFileName() ?? '').startsWith(RUNTIME_DIR)) n++;
    return n;
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}

/**
 * The site text of position `line`:`column` (1-based) of `file` in the program's own coordinates: through the
 * file's source map (a rewritten file's, `../instrument/source-map.ts`, whose source is the file itself; or a
 * library's own map, whose source is another file, e.g. its TypeScript; structured call sites are not mapped). The
 * file named is the map's source of that position, so its line and column belong to it.
 */
export function originalSite(file: string, line: number, column: number): string {
  let entry: { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
  if (file.startsWith('file:') || file.startsWith('/'))
    try {
      entry = findSourceMap(file)?.findEntry(line - 1, column - 1);
    } catch {
      entry = undefined; // a map Node could not read: the generated position
    }
  return entry?.originalLine === undefined || entry.originalColumn === undefined
    ? siteText(file, line, column)
    : siteText(entry.originalSource || file, entry.originalLine + 1, entry.originalColumn + 1);
}

/** This thread's site string ids: of the rewritten sites and of the caller frames met. */
export class Sites {
  /** The string id of each static site, by its local number. */
  private readonly sites: number[] = [];
  /** The string id of each caller frame, by `file:line:column`. */
  private readonly frames = new Map<string, number>();
  private readonly holder: { stack?: NodeJS.CallSite[] } = {};

  constructor(
    private readonly s: StateViews,
    private readonly hooks: ThreadHooks,
  ) {}

  /** The string id of static site `local` (a rewritten access's, `Hooks.siteLocation`); a property: passed on as a function. */
  readonly siteOf = (local: number): number => {
    let g = this.sites[local];
    if (g === undefined) {
      const l = this.hooks.siteLocation(local);
      g = putString(this.s, siteText(l.file, l.line, l.column));
      this.sites[local] = g;
    }
    return g;
  };

  /**
   * String id of the user frame calling `fn` (a patched function): the static site of the rewritten call running
   * it (`Hooks.sited`, `Hooks.atomics`), else the frame right below it, or, when `outside`, the first frame below
   * it that is in a file and in neither Node's own code nor the runtime's (see `Context.callerSite`,
   * `./context.ts`). A property: passed on as a function.
   */
  readonly callerSite = (fn: Callee, outside = false): number => {
    const hooks = this.hooks;
    if (hooks.pendingCallee() === fn) return this.siteOf(hooks.pendingSite()); // a rewritten call's static site
    const holder = this.holder;
    const limit = Error.stackTraceLimit;
    const prepare = Error.prepareStackTrace;
    let frame: NodeJS.CallSite | undefined;
    Error.stackTraceLimit = outside ? 64 : 1;
    Error.prepareStackTrace = structured;
    try {
      Error.captureStackTrace(holder, fn);
      // read while `structured` is installed: V8 prepares the stack on first read
      frame = outside ? holder.stack?.find((f) => !internalFrame(f)) : holder.stack?.[0];
    } finally {
      Error.prepareStackTrace = prepare;
      Error.stackTraceLimit = limit;
    }
    const file = frame?.getFileName() ?? frame?.getScriptNameOrSourceURL();
    const line = frame?.getLineNumber() ?? 0;
    const column = frame?.getColumnNumber() ?? 0;
    const key = file ? `${file}:${line}:${column}` : '<unknown>';
    let g = this.frames.get(key);
    if (g === undefined) {
      g = putString(this.s, file ? originalSite(file, line, column) : key);
      this.frames.set(key, g);
    }
    return g;
  };
}
