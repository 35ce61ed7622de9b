/**
 * ESM loader hooks (node:module `register`, Node ≥ 20.6), run on Node's loader thread: instruments every ES module
 * and type-strips TypeScript. CommonJS files are left to the CommonJS loader, whose `_compile` `./register.ts`
 * patches in every thread (in Node 20 a CommonJS file imported from ESM is still compiled by the CommonJS loader).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFunction } from 'node:vm';
import { installHooks } from '../hooks/install.js';
import { isTypeScript, stripTypes, transformSource } from './transform.js';

// Modules that other loader hooks (tsx, ...) load into this loader thread are instrumented too: they find the
// hooks here, with the passthrough runtime (this thread runs no user code).
installHooks();

interface LoadContext {
  format?: string | null;
  conditions?: string[];
  importAttributes?: Record<string, string>;
}
interface LoadResult {
  format?: string | null;
  source?: string | ArrayBuffer | ArrayBufferView | null;
  shortCircuit?: boolean;
}
type NextLoad = (url: string, context?: LoadContext) => Promise<LoadResult>;

/** `load` hook: see the file header. */
export async function load(url: string, context: LoadContext, nextLoad: NextLoad): Promise<LoadResult> {
  if (url.startsWith('file:') && isTypeScript(url)) {
    const path = fileURLToPath(url);
    const text = await readFile(path, 'utf8');
    let source: string;
    if (typeScriptFormat(path) === 'commonjs') {
      // a TypeScript loader before us (tsx: its resolve says `commonjs`) compiles the file as CommonJS, its imports
      // turned into require calls: the CommonJS loader runs it, instrumented by register.ts's compile hook
      if (context.format === 'commonjs') return { format: 'commonjs', source: null, shortCircuit: true };
      // a `.ts` of no `type` with import/export is an ES module, as Node detects it (else the CommonJS loader,
      // finding module syntax, would hand the file back here, and nothing would run); stripped alike either way
      source = stripTypes(text, path);
      if (!hasModuleSyntax(source)) return { format: 'commonjs', source: null, shortCircuit: true };
    } else source = stripTypes(text, url, true);
    return { format: 'module', source: transformSource(source, url, true), shortCircuit: true };
  }
  const result = await nextLoad(url, context);
  if (result.format !== 'module' || result.source == null) return result;
  const text =
    typeof result.source === 'string' ? result.source : Buffer.from(result.source as Uint8Array).toString();
  return { ...result, source: transformSource(text, url, true) };
}

/** The errors of CommonJS compilation that mean ES module syntax (Node's `containsModuleSyntax`, 20.19). */
const MODULE_SYNTAX = [
  'Cannot use import statement outside a module',
  "Unexpected token 'export'",
  "Cannot use 'import.meta' outside a module",
];

/** Does JavaScript `code` fail to compile as CommonJS for ES module syntax (import, export, import.meta)? */
function hasModuleSyntax(code: string): boolean {
  try {
    compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname']);
    return false;
  } catch (e) {
    return e instanceof SyntaxError && MODULE_SYNTAX.some((m) => e.message.includes(m));
  }
}

/** `.mts` is ESM, `.cts` CommonJS, `.ts` follows the nearest package.json's `type` (CommonJS when none). */
export function typeScriptFormat(path: string): 'module' | 'commonjs' {
  if (path.endsWith('.mts')) return 'module';
  if (path.endsWith('.cts')) return 'commonjs';
  return packageType(dirname(path));
}

const packageTypes = new Map<string, 'module' | 'commonjs'>();

function packageType(dir: string): 'module' | 'commonjs' {
  const cached = packageTypes.get(dir);
  if (cached) return cached;
  let type: 'module' | 'commonjs';
  try {
    type =
      JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type === 'module' ? 'module' : 'commonjs';
  } catch {
    const parent = dirname(dir);
    type = parent === dir ? 'commonjs' : packageType(parent);
  }
  packageTypes.set(dir, type);
  return type;
}
