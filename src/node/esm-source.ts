/**
 * ES modules instrumented in the thread that loads them, without Node's loader-hooks thread (issue 24 §2), in a
 * worker that started without the ES module hooks (`./lazy-esm.ts`). Node 20's default `load`
 * (`internal/modules/esm/load`, `getSource`) reads a `file:` module's source by calling
 * `require('internal/fs/promises').exports.readFile(url)` at each load: the object `node:fs/promises` exports (and
 * `fs.promises`). {@link loadEsmInThread} replaces its `readFile` by a function that, for that call only (one `URL`
 * argument, called from `getSource`: {@link calledByLoader}), returns the source the runtime's `load` hook
 * (`./loader.ts`) would give the module: instrumented when Node compiles it as an ES module, as it is otherwise.
 * Every other call goes to Node's `readFile` unchanged. The module keeps its URL, so `import.meta.url`, relative
 * specifiers, `import.meta.resolve`, stack file names and the inline source map are those of the hooks' way.
 *
 * The format is Node's (`internal/modules/esm/get_format`, Node 20.19): `.mjs` and `.js` or extensionless files in a
 * `"type": "module"` scope are ES modules; a `.js` or extensionless file in a scope of no `type` is one when
 * Node's own module-syntax detection (`containsModuleSyntax` of the `contextify` binding, the function Node's
 * `detectModuleFormat` calls) finds module syntax in it; any other file (CommonJS, JSON, WebAssembly, TypeScript) gets
 * its source unchanged (Node reloads a CommonJS file with the CommonJS loader, instrumented by `./setup.ts`).
 * A module whose source imports a `data:` URL or a TypeScript file written as a literal (a `data:` module, which Node
 * reads without `readFile`; TypeScript, which Node 20 does not strip) first makes the thread register the hooks
 * (`registerHooks`), which load every later module.
 */
import { promises } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageScopeType } from './lazy-esm.js';
import { transformSource } from './transform.js';

type ReadFile = typeof promises.readFile;

/** The frame of Node's ES module loader that reads a module's source (`getSource`). */
const LOADER_FRAME = '(node:internal/modules/esm/load:';
/** How many frames below the `readFile` wrapper may hold {@link LOADER_FRAME}. */
const LOADER_DEPTH = 4;

/**
 * Is `fn` called by Node's ES module loader, directly or through functions the program put in its place that call it
 * (a test's mock of `readFile`)? Read from the {@link LOADER_DEPTH} frames below `fn`, with the program's
 * `Error.prepareStackTrace` and `Error.stackTraceLimit` set aside.
 */
function calledByLoader(fn: (...args: never[]) => unknown): boolean {
  const prepare = Reflect.get(Error, 'prepareStackTrace');
  const limit = Reflect.get(Error, 'stackTraceLimit');
  const holder: { stack?: string } = {};
  if (prepare !== undefined) Reflect.set(Error, 'prepareStackTrace', undefined);
  Reflect.set(Error, 'stackTraceLimit', LOADER_DEPTH);
  try {
    Error.captureStackTrace(holder, fn);
    return holder.stack?.includes(LOADER_FRAME) === true; // formatted here, before the program's hooks are back
  } finally {
    if (prepare !== undefined) Reflect.set(Error, 'prepareStackTrace', prepare);
    Reflect.set(Error, 'stackTraceLimit', limit);
  }
}

/** Node's module-syntax detection: does a file of this source, path and URL hold ES module syntax? */
type Detect = (source: string, filename: string, url: string) => boolean;

/** {@link Detect}: `containsModuleSyntax` of the `contextify` binding, read once when first needed. */
let containsModuleSyntax: Detect | undefined;

/** Node's own {@link Detect}, read through `process.binding` with its deprecation warning kept quiet. */
function nodeDetection(): Detect {
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {}; // DEP0111 under --pending-deprecation: Node's own detection, not the program's
  try {
    const node = process as unknown as { binding(m: string): { containsModuleSyntax: Detect } };
    return node.binding('contextify').containsModuleSyntax;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Node's verdict for an ambiguous file (a `.js` of no package `type`): ES module syntax? */
function detectModule(source: string, url: URL): boolean {
  containsModuleSyntax ??= nodeDetection();
  return containsModuleSyntax(source, fileURLToPath(url), url.href);
}

/** Is `source`, read from `url`, compiled by Node as an ES module (see the file header)? */
function isEsModule(source: string, url: URL): boolean {
  const ext = extname(url.pathname);
  if (ext === '.mjs') return true;
  if (ext !== '.js' && ext !== '') return false;
  const type = packageScopeType(fileURLToPath(new URL('.', url)));
  if (type === 'module') return ext === '.js' || !source.startsWith('\0asm'); // extensionless: WebAssembly's magic
  return type === 'none' && detectModule(source, url);
}

/**
 * Does `source` import a module that only the runtime's hooks load: a `data:` URL (a module Node would load without
 * `readFile`), or a TypeScript file (`.ts`, `.mts`, `.cts`: Node 20's own loader strips no types, `./loader.ts`
 * does), named by a string or template literal as the specifier of an `import` declaration, an `export … from` or an
 * `import()`?
 */
export const importsForHooks = (source: string): boolean =>
  /(?:\bimport\s*\(|\bfrom|\bimport)\s*(?:['"`]data:|(['"`])[^'"`\n]*\.[mc]?ts\1)/.test(source);

/**
 * Makes this thread's ES module loader get instrumented sources of `file:` modules from `fs.promises.readFile`
 * (see the file header). `registerHooks` registers the runtime's ES module hooks in this thread (once).
 */
export function loadEsmInThread(registerHooks: () => void): void {
  const nodeReadFile: ReadFile = promises.readFile;
  const load = async (url: URL): Promise<Buffer | string> => {
    const bytes = await nodeReadFile(url);
    const text = bytes.toString();
    if (!isEsModule(text, url)) return bytes;
    if (importsForHooks(text)) registerHooks();
    return transformSource(text, url.href, true);
  };
  const inThread = function readFile(this: unknown, ...args: Parameters<ReadFile>) {
    if (
      args.length === 1 &&
      args[0] instanceof URL &&
      args[0].protocol === 'file:' &&
      calledByLoader(inThread)
    )
      return load(args[0]);
    return Reflect.apply(nodeReadFile, this, args);
  };
  Object.defineProperty(inThread, 'length', { value: nodeReadFile.length });
  promises.readFile = inThread as ReadFile;
}
