/**
 * The rewriter's state: one {@link Rewriter} per file rewritten (its source, parse, edits, site table and the tables
 * the walk fills), and the {@link State} the walk carries from node to node (where temporaries go, strictness, the
 * loop and function around the node). The other files of this folder are functions of them, one concern each, as
 * acorn's files are methods of its `Parser`; `./instrument.ts` runs them.
 */

import { type Options, parse } from 'acorn';
import type { Reference, Variable } from 'eslint-scope';
import type * as E from 'estree';
import MagicString from 'magic-string';
import { HOOKS_GLOBAL } from '../hooks/names.js';
import { isStable, localNames, type N } from './syntax.js';

export { HOOKS_GLOBAL };
/** Prefix of every identifier the rewriter introduces; user code must not declare names starting with it. */
export const RESERVED_PREFIX = '__gl$';
/** The module's site function, appended by the rewriter (see `./sites.ts`). */
export const SITE_FN = `${RESERVED_PREFIX}m`;
/** Prefix of the per-site cache variables, `__gl$c<site>` (see `./guarded.ts`). */
export const SITE_CACHE = `${RESERVED_PREFIX}c`;
/**
 * The module's variable that holds the source offset of the last module constant initialized that a range-checked
 * loop reads (`./ranges.ts` `initializedTest`); declared in the trailer (`./sites.ts`) when used.
 */
export const INITIALIZED = `${RESERVED_PREFIX}k`;
/** The loop variable of a for…of loop's indexed copy (`./for-of.ts`), a `let` of that copy. */
export const COPY_INDEX = `${RESERVED_PREFIX}j`;

/**
 * What to rewrite: `file` is the URL or path recorded with each site; `module` selects ESM (strict) parsing;
 * `sourceMap` appends the rewritten code's inline source map (`./source-map.ts`); `commonjs` says that the script is a
 * CommonJS module's code, which Node runs inside a function (its top-level bindings are that function's locals, not
 * globals: `./scope.ts`), not code run as a script (a worker's `eval: true` code).
 */
export interface InstrumentOptions {
  file: string;
  module: boolean;
  sourceMap?: boolean;
  commonjs?: boolean;
}

/** Where temporaries of one activation are declared. */
export interface Scope {
  temps: number;
  /** 'body': a block (function body, static block) gets `;var ...` before its `}`; 'program': at the end; 'arrow':
   *  an arrow expression body becomes a block; 'wrap': the expression is wrapped in `(() => {...})()`. */
  kind: 'body' | 'program' | 'arrow' | 'wrap';
  node: N;
}

/** What the walk knows at a node. */
export interface State {
  /** The file being rewritten. */
  rw: Rewriter;
  scope: Scope;
  strict: boolean;
  /** The innermost loop around the node in the same function, or null. */
  loop: Loop | null;
  /** The function (or program) whose code this is; null in class static blocks and field initializers. */
  fn: N | null;
}

/** A loop whose element accesses may skip the per-access guard (see `./loops.ts`). */
export interface Loop {
  node: N;
  /** The function (or program) the loop is in. */
  fn: N;
  /** Where its statement starts: the first of its labels, if any. */
  start: number;
  /** The scope of the function (or program) the loop is in: where its guard temporaries are declared. */
  scope: Scope;
  /** The loop around it in the same function whose body it is in (guards allowed there), else null. */
  outer: Loop | null;
  /** Per invariant variable used as an element access's object in the loop: the temporary of its guard. */
  guards: Map<Variable, string>;
  /**
   * Per member `R.p` used as an element access's object in the loop, `R` being `this` (`base` null) or an invariant
   * variable: the temporary its accesses compare their object with (see `memberGuardOf`).
   */
  members: Array<{ base: Variable | null; p: string; temp: string }>;
  /**
   * A loop whose accesses are range-checked (`./ranges.ts` RangePlan): the one guard of all of them, or, for a
   * covered loop, the guard whose bit k is that of `accesses[k]`; else null.
   */
  range: {
    temp: string;
    covered: boolean;
    accesses: Array<{ member: N }>;
    nested: ReadonlySet<object>;
  } | null;
}

/** A site as the loop guards see it: its position, and the object of an element access (else null). */
export interface SiteNote {
  pos: number;
  object: (E.Identifier & N) | null;
  loop: Loop | null;
}

/** One file being rewritten. */
export class Rewriter {
  readonly program: N & E.Program;
  /** The edits, in place on the source. */
  readonly ms: MagicString;
  /** Per site, in creation order: its 1-based line and column (UTF-16 code units, as V8 counts them). */
  readonly locs: number[] = [];
  /** Per site, in creation order: its node's start and end offsets, where the source map anchors inserted text. */
  readonly ranges: number[] = [];
  /** One per access left uninstrumented. */
  readonly warnings: string[] = [];
  /** The names bound anywhere in the program (`localNames`). */
  readonly locals: Set<string>;
  /** Every site in creation order, for the loop guards (`notes.slice(k)` = the sites of a subtree visited last). */
  readonly notes: SiteNote[] = [];
  /** The sites that have a cache variable (element reads and writes), declared with the module's temporaries. */
  readonly cached = new Set<number>();
  /** Start offsets of the rewritten expressions (each now begins with `(`). */
  readonly emitted = new Set<number>();
  /** The outermost of the labels of a labeled statement's body. */
  readonly outerLabel = new Map<E.Node, N>();
  /**
   * Statements of statement lists (a program's, a block's, a `case`'s): a loop guard is set by a statement of its
   * own before the loop, which needs a list to go in (a loop that is the body of an `if`, `for`... is put in a block
   * with it, `./loops.ts` `inLoop`).
   */
  readonly listed: Set<E.Node>;
  /**
   * Per function (or the program) with a loop: its references by identifier node, from eslint-scope's analysis of
   * that function alone (see `./scope.ts`).
   */
  readonly analyses = new Map<N, Map<E.Node, Reference> | null>();
  /** Start offsets of the module constants' initializers that set {@link INITIALIZED} (`./ranges.ts`). */
  readonly initializers = new Set<number>();
  /** The source's comments, in order: start and end offsets, two numbers each (`./loops.ts` `oneLine`). */
  readonly comments: number[] = [];
  /** Constructors of classes with an `extends` clause: `this` is in its temporal dead zone until `super()`. */
  readonly derivedConstructors = new Set<E.Node>();

  /**
   * Parses `source` (acorn, ESTree, `preserveParens` so parenthesized operands keep exact ranges).
   * @throws SyntaxError (acorn's, with `loc`) when `source` does not parse.
   */
  constructor(
    readonly source: string,
    readonly options: InstrumentOptions,
  ) {
    const parseOptions: Options = {
      ecmaVersion: 'latest',
      sourceType: options.module ? 'module' : 'script',
      locations: true,
      ranges: true, // for eslint-scope
      preserveParens: true,
      allowHashBang: true,
      allowReturnOutsideFunction: !options.module,
      allowAwaitOutsideFunction: options.module,
      onComment: (_block, _text, start, end) => {
        this.comments.push(start, end);
      },
    };
    this.program = parse(source, parseOptions) as unknown as N & E.Program;
    this.ms = new MagicString(source);
    this.locals = localNames(this.program);
    this.listed = new Set<E.Node>(this.program.body);
  }
}

/** Is `n` an identifier of a local binding (or `arguments`), whose read runs no code? */
export const isLocal = (rw: Rewriter, n: E.Node): boolean =>
  n.type === 'Identifier' && (rw.locals.has(n.name) || n.name === 'arguments');

/** Evaluating it runs no user code (but later code may change what it names). */
export const isPure = (rw: Rewriter, n: E.Node): boolean => isStable(n) || isLocal(rw, n);
