/**
 * Scope analysis for the loop guards (`./loops.ts`): which variables hold the same value throughout a loop, from
 * eslint-scope's analysis of the function (or program) around it.
 */

import { createRequire } from 'node:module';
import type * as EslintScope from 'eslint-scope';
import type { Reference, Variable } from 'eslint-scope';
import type * as E from 'estree';
import type { Loop, Rewriter } from './rewriter.js';
import { literalValue, type N } from './syntax.js';

/**
 * eslint-scope, from its CommonJS bundle (about 12 ms to load, against about 40 ms for its ESM entry, in every thread
 * that instruments code), loaded with this module: before the thread's loaders are installed, so that it is not
 * itself instrumented (which would re-enter this module while it loads).
 */
const eslintScope = createRequire(import.meta.url)('eslint-scope') as typeof EslintScope;

/** Loop guards: functions (or programs) longer than this many characters are not analyzed (see `referenceOf`). */
const MAX_ANALYZED = 64 * 1024;

/**
 * The reference of identifier `id` in the function (or program) `fn` with a loop, from eslint-scope's analysis of
 * that function alone (its free variables are then unresolved: not loop-guarded), made once per function
 * ({@link Rewriter.analyses}); undefined for a function of more than {@link MAX_ANALYZED} characters (the analysis
 * costs about as much as the rest of the rewriting).
 */
function referenceOf(rw: Rewriter, id: E.Identifier, fn: N): Reference | undefined {
  let refs = rw.analyses.get(fn);
  if (refs === undefined) {
    refs = null;
    if (fn.end - fn.start <= MAX_ANALYZED) {
      const body =
        fn.type === 'Program'
          ? (fn as unknown as E.Program).body
          : fn.type === 'FunctionDeclaration'
            ? [fn as unknown as E.FunctionDeclaration]
            : [{ type: 'ExpressionStatement', expression: fn } as E.ExpressionStatement];
      // the wrapper keeps the program's offsets: the scope of a module's top-level variables is its block (`invariant`)
      const wrapper = {
        type: 'Program',
        body,
        sourceType: 'script',
        start: fn.start,
        end: fn.end,
      } as E.Program;
      const manager = eslintScope.analyze(wrapper, {
        ecmaVersion: 2022,
        sourceType: rw.options.module ? 'module' : 'script',
        // a CommonJS module's top level is the body of Node's wrapper function
        nodejsScope: fn.type === 'Program' && rw.options.commonjs === true,
        fallback: 'iteration',
      });
      refs = new Map();
      for (const scope of manager.scopes)
        for (const r of scope.references) refs.set(r.identifier as E.Identifier, r);
    }
    rw.analyses.set(fn, refs);
  }
  return refs?.get(id);
}

/**
 * Whether `v` holds the same value throughout every execution of `loop` and can be read without an exception
 * before it (no temporal dead zone), from code in the function `fn`: a parameter of a function that does not use
 * `arguments` (which may alias it), or a `var`, `let` or `const` of `fn` (a `let`/`const` declared before the
 * loop in a block around it, not a `switch`'s), never assigned except by its declaration outside the loop;
 * not a global of a script (a property of the global object), not reachable from a direct `eval` or `with`.
 */
function invariant(v: Variable, loop: Loop, fn: unknown, writable = false): boolean {
  if (v.tainted || v.defs.length !== 1 || v.scope.type === 'global') return false;
  const node = loop.node;
  const inside = (n: E.Node) => (n as N).start >= node.start && (n as N).end <= node.end;
  if (!writable)
    for (const r of v.references)
      if (r.isWrite() && (!r.init || inside(r.identifier as E.Identifier))) return false;
  const d = v.defs[0];
  if (d.type === 'Parameter') return (v.scope.set.get('arguments')?.references.length ?? 0) === 0;
  if (d.type !== 'Variable' || v.scope.variableScope !== fn) return false;
  if (d.parent.kind === 'var') return true;
  const block = v.scope.block as N;
  return (
    v.scope.type !== 'switch' &&
    (d.parent as N).end <= node.start &&
    block.start <= node.start &&
    node.end <= block.end
  );
}

/** The variable `id` names, when it is invariant in `loop` (see `invariant`), else null. */
export function invariantVariable(rw: Rewriter, loop: Loop, id: E.Identifier): Variable | null {
  const r = referenceOf(rw, id, loop.fn);
  const v = r?.resolved;
  return r && v && invariant(v, loop, r.from.variableScope) ? v : null;
}

/**
 * Whether `id` names a variable of the loop's function that the loop may assign but that reads without an
 * exception anywhere in it: `invariant`'s conditions without the one on assignments (range checks, `./ranges.ts`:
 * an accumulator such as `sum += a[j]`); with `assigned`, also one the loop may assign without an exception (not a
 * `const`).
 */
export function loopLocal(rw: Rewriter, loop: Loop, id: E.Identifier, assigned = false): boolean {
  const r = referenceOf(rw, id, loop.fn);
  const v = r?.resolved;
  if (r === undefined || v === null || v === undefined || !invariant(v, loop, r.from.variableScope, true))
    return false;
  // an assignment to a `const` throws a TypeError (ECMA-262 §9.1.1.1.5): the loop would stop at its first iteration
  return !assigned || v.defs[0].type !== 'Variable' || v.defs[0].parent.kind !== 'const';
}

/**
 * The variable `id` names when it is declared once at the top level of the module, from the analysis of the whole
 * program: an ES module's, or with `commonjs` also a CommonJS module's (the body of Node's wrapper function); else
 * null (a script, whose top-level bindings are global; a shadowing binding, a direct `eval` or `with`).
 */
function topLevel(rw: Rewriter, id: E.Identifier, commonjs = false): Variable | null {
  const { module } = rw.options;
  if (!module && !(commonjs && rw.options.commonjs === true)) return null;
  const v = declaredOnce(rw, id);
  if (v === null || v.scope.block.type !== 'Program') return null;
  return v.scope.type === (module ? 'module' : 'function') ? v : null;
}

/**
 * The variable `id` names, from the analysis of the whole program, when one declaration defines it and no direct
 * `eval` or `with` can reach it; else null.
 */
function declaredOnce(rw: Rewriter, id: E.Identifier): Variable | null {
  const v = referenceOf(rw, id, rw.program)?.resolved;
  return v && !v.tainted && v.defs.length === 1 ? v : null;
}

/**
 * The function declaration `id` names when it is one of the module's top-level functions that nothing assigns (a
 * module's bindings are not properties of the global object, and an importer cannot assign them: ECMA-262 §16.2.1.6),
 * from the analysis of the whole program; else null (a script, a shadowing binding, a direct `eval` or `with`).
 */
export function moduleFunction(rw: Rewriter, id: E.Identifier): (E.FunctionDeclaration & N) | null {
  const v = topLevel(rw, id);
  if (v === null) return null;
  const d = v.defs[0];
  if (d.type !== 'FunctionName' || v.references.some((r) => r.isWrite())) return null;
  return d.node as E.FunctionDeclaration & N;
}

/**
 * Whether `id` (resolved in the loop's function, `referenceOf`) may be assigned by a function nested in the one that
 * declares it: a closure a call or setter runs could then change it in the middle of the loop (covered loops with
 * opaque operations, `./opaque.ts`). True when `id` does not resolve.
 */
export function closureWritten(rw: Rewriter, loop: Loop, id: E.Identifier): boolean {
  const v = referenceOf(rw, id, loop.fn)?.resolved;
  if (!v) return true;
  return v.references.some((r) => r.isWrite() && r.from.variableScope !== v.scope.variableScope);
}

/**
 * A top-level binding of the module that `id` (free in the function of `loop`) names: a `const`, `let` or `var`
 * declared by a statement of the module's top level (an ES module's, or a CommonJS module's, the body of Node's
 * wrapper function: not a script's, whose top-level bindings are global), from the analysis of the whole program;
 * else null (a binding of an enclosing function, of a block, a shadowing one, a direct `eval` or `with`). A
 * range-checked loop's body runs no other code (`./ranges.ts`), so such a binding keeps its value throughout the
 * loop when the body does not assign it, like the function's own locals; read before its declaration ran, a `let`
 * or `const` throws (ECMA-262 §9.1.1.1), which the loop's guard tests first (`statement`: the declaration, or the
 * `export` around it, after which the binding is initialized). `fixed`: a `const`, or assigned only by its
 * declaration, so that no code, a closure's included, can change it (`./opaque.ts`).
 */
export function moduleBinding(
  rw: Rewriter,
  loop: Loop,
  id: E.Identifier,
): { statement: E.Statement & N; fixed: boolean } | null {
  if (referenceOf(rw, id, loop.fn)?.resolved) return null; // the function's own, or its parameter
  const v = topLevel(rw, id, true);
  if (v === null) return null;
  const d = v.defs[0];
  if (d.type !== 'Variable') return null;
  const statement = rw.program.body.find(
    (x) => x === d.parent || (x.type === 'ExportNamedDeclaration' && x.declaration === d.parent),
  );
  if (statement === undefined) return null;
  const fixed = d.parent.kind === 'const' || v.references.every((r) => !r.isWrite() || r.init === true);
  return { statement: statement as E.Statement & N, fixed };
}

/**
 * A binding of a function enclosing the loop's function that `id` (free in the function of `loop`) names, from the
 * analysis of the whole program: a parameter of that function (which does not use `arguments`, which may alias it),
 * or a `const`, `let` or `var` it declares (not in a `switch`), captured by a closure (an arrow over a row, a
 * worker's `function sweep(c)` nested in `main()`); else null (the loop's own, a module's top-level binding:
 * {@link moduleBinding}; a function, class, catch or import binding; a direct `eval` or `with`; a program of more
 * than {@link MAX_ANALYZED} characters). A range-checked loop's body runs no other code (`./ranges.ts`), so such a
 * binding keeps its value throughout the loop when the body does not assign it, like the function's own locals.
 * `tdz`: a `let` or `const`, which the closure may read before its declaration ran (a function declaration is
 * created as its scope is entered, ECMA-262 §10.2.11; a call may run it before the declaration), or a parameter of
 * a function whose parameters are not all plain names, so that the loop's guard first tests that reading it does
 * not throw (`Hooks.declared`). `fixed`: a `const`, or assigned only by its
 * declaration, so that no code, a closure's included, can change it (`./opaque.ts`).
 */
export function capturedBinding(
  rw: Rewriter,
  loop: Loop,
  id: E.Identifier,
): { tdz: boolean; fixed: boolean } | null {
  if (referenceOf(rw, id, loop.fn)?.resolved) return null; // the function's own, or its parameter
  const v = declaredOnce(rw, id);
  if (v === null || v.scope.type === 'global' || v.scope.type === 'switch') return null;
  if (v.scope.variableScope.block.type === 'Program') return null; // the module's (or a script's) top level
  const d = v.defs[0];
  if (d.type === 'Parameter' && (v.scope.set.get('arguments')?.references.length ?? 0) > 0) return null;
  if (d.type !== 'Parameter' && d.type !== 'Variable') return null;
  const fixed =
    (d.type === 'Variable' && d.parent.kind === 'const') ||
    v.references.every((r) => !r.isWrite() || r.init === true);
  // a parameter is in its temporal dead zone while the parameters before it are initialized, when a default or a
  // pattern could run a closure (ECMA-262 §10.2.11 step 26)
  const simple = (v.scope.block as E.Function).params?.every((p) => p.type === 'Identifier');
  return { tdz: d.type === 'Parameter' ? !simple : d.parent.kind !== 'var', fixed };
}

/**
 * The initializer of the module constant `id` names: a top-level `const` of an ES module whose initializer is a
 * number literal, possibly negated (a module's bindings are not properties of the global object, and a `const` is
 * never assigned: ECMA-262 §16.2.1.6, §14.3.1), from the analysis of the whole program; else null. Read in its
 * temporal dead zone it throws, as the plain program would.
 */
export function moduleConstant(rw: Rewriter, id: E.Identifier): E.Expression | null {
  const v = topLevel(rw, id);
  if (v === null) return null;
  const d = v.defs[0];
  if (d.type !== 'Variable' || d.parent.kind !== 'const' || d.node.id.type !== 'Identifier') return null;
  const init = d.node.init;
  return init && literalValue(init) !== undefined ? init : null;
}
