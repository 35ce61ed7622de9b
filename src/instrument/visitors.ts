/**
 * The walk: acorn-walk visitors (one table, state in {@link State}) that send each node to the file of its concern
 * and keep the walk state (temporaries' scopes, strictness, loops, statement lists, labels) up to date.
 *
 * Left alone: non-computed `o.p`; `super[k]`; callees `o[k](...)`, `new o[k]`, tags `` o[k]`...` `` (the value of a
 * typed-array element is never callable, so no shared access is missed and `this` is kept); `delete o[k]`; an
 * optional chain that is itself a callee, a tag or the operand of `delete` (`./chain.ts`).
 */

import type * as E from 'estree';
import { allocation } from './allocations.js';
import { atomicsCall } from './atomics.js';
import { rewriteChain } from './chain.js';
import { patternSource, typedArrayNew, wrapElements } from './copies.js';
import { rewriteAssign, rewriteRead, rewriteTarget, rewriteUpdate } from './elements.js';
import { inLoop, loopGuarded } from './loops.js';
import { methodCall } from './methods.js';
import type { State } from './rewriter.js';
import {
  baseV,
  elementOf,
  hasUseStrict,
  mayBeView,
  type N,
  unparen,
  type Visitor,
  type Walk,
} from './syntax.js';
import { inScope } from './temporaries.js';

/** Visits the operands of a member expression (or optional chain) that is itself left as it is. */
function operandsOnly(n: E.Node, st: State, c: Walk<State>): void {
  const x = unparen(n);
  if (x.type === 'ChainExpression') {
    rewriteChain(x as E.ChainExpression & N, st, c, false);
    return;
  }
  if (x.type !== 'MemberExpression') {
    c(n, st);
    return;
  }
  if (x.object.type !== 'Super') c(x.object, st);
  if (x.computed) c(x.property, st);
}

/** An assignment or update: when its target is an element access, visits the target's operands then `rewrite`. */
function writeForm(
  node: E.Node,
  target: E.Node,
  st: State,
  c: Walk<State>,
  rewrite: (m: E.MemberExpression & N) => void,
) {
  const m = elementOf(target);
  if (!m) {
    baseV[node.type](node, st, c);
    return;
  }
  operandsOnly(m, st, c);
  rewrite(m);
}

/** Calls, `new`: a callee `o[k]` is left as it is (it keeps its `this`); its operands and the arguments are visited. */
function callLike(node: E.Node, st: State, c: Walk<State>): void {
  const n = node as E.CallExpression | E.NewExpression;
  operandsOnly(n.callee, st, c);
  for (const a of n.arguments) c(a, st);
  if (n.type === 'CallExpression') {
    if (!atomicsCall(st.rw, n as E.SimpleCallExpression & N)) methodCall(n as E.SimpleCallExpression & N, st);
  } else {
    allocation(st.rw, n as E.NewExpression & N);
    typedArrayNew(n as E.NewExpression & N, st);
  }
}

/** `for (o[k] of ...)` and `for ([o[k]] in ...)`: the head is an assignment target (ECMA-262 §14.7.5.7). */
function forInOf(node: E.Node, st: State, c: Walk<State>): void {
  const n = node as E.ForInStatement;
  c(n.left, st, n.left.type === 'VariableDeclaration' ? undefined : 'Pattern');
  c(n.right, st);
  c(n.body, st);
}

/** Parameter patterns: their default values and computed keys get a scope of their own (a wrapping arrow). */
function paramDefaults(p: N, st: State, c: Walk<State>): void {
  const wrapped = (e: E.Node) => inScope(st.rw, 'wrap', e, st.strict, (s) => c(e, s));
  switch (p.type) {
    case 'AssignmentPattern':
      paramDefaults(p.left as N, st, c);
      wrapped(p.right);
      break;
    case 'ArrayPattern':
      for (const e of p.elements) if (e) paramDefaults(e as N, st, c);
      break;
    case 'ObjectPattern':
      for (const prop of p.properties) {
        if (prop.type === 'RestElement') paramDefaults(prop.argument as N, st, c);
        else {
          if (prop.computed) wrapped(prop.key);
          paramDefaults(prop.value as N, st, c);
        }
      }
      break;
    case 'RestElement':
      paramDefaults(p.argument as N, st, c);
      break;
  }
}

export const visitors: Record<string, Visitor<State>> = {
  ExpressionStatement(node, st, c) {
    baseV.ExpressionStatement(node, st, c);
    // A statement now beginning with `(` would continue a previous line that has no semicolon (ASI does not
    // apply before `(`): `void 0, ` keeps it a statement of its own, also as the body of an `if`.
    if (st.rw.emitted.has((node as N).start)) st.rw.ms.prependLeft((node as N).start, 'void 0, ');
  },
  MemberExpression(node, st, c) {
    const before = st.rw.notes.length;
    baseV.MemberExpression(node, st, c);
    const m = elementOf(node as E.Node);
    if (m) {
      rewriteRead(m, st);
      loopGuarded(m, before, st);
    }
  },
  MemberPattern(node, st, c) {
    operandsOnly(node as E.Node, st, c);
    const m = elementOf(node as E.Node);
    if (m) rewriteTarget(m, st);
  },
  Pattern(node, st, c) {
    const x = unparen(node as E.Node);
    if (x.type === 'MemberExpression') c(x, st, 'MemberPattern');
    else baseV.Pattern(node, st, c);
  },
  AssignmentExpression(node, st, c) {
    const n = node as E.AssignmentExpression & N;
    const before = st.rw.notes.length;
    writeForm(n, n.left, st, c, (m) => {
      c(n.right, st);
      rewriteAssign(n, m, st);
      loopGuarded(n, before, st);
    });
    if (n.operator === '=') patternSource(st.rw, n.left, n.right as N);
  },
  VariableDeclarator(node, st, c) {
    const n = node as E.VariableDeclarator;
    baseV.VariableDeclarator(n, st, c);
    if (n.init) patternSource(st.rw, n.id, n.init as N);
  },
  ObjectExpression(node, st, c) {
    baseV.ObjectExpression(node, st, c);
    for (const p of (node as E.ObjectExpression).properties)
      if (p.type === 'SpreadElement' && mayBeView(p.argument))
        wrapElements(st.rw, p as N, p.argument as N, '');
  },
  UpdateExpression(node, st, c) {
    const n = node as E.UpdateExpression & N;
    const before = st.rw.notes.length;
    writeForm(n, n.argument, st, c, (m) => {
      rewriteUpdate(n, m, st);
      loopGuarded(n, before, st);
    });
  },
  LabeledStatement(node, st, c) {
    const n = node as E.LabeledStatement & N;
    st.rw.outerLabel.set(n.body, st.rw.outerLabel.get(n) ?? n);
    baseV.LabeledStatement(node, st, c);
  },
  BlockStatement(node, st, c) {
    for (const s of (node as E.BlockStatement).body) st.rw.listed.add(s);
    baseV.BlockStatement(node, st, c);
  },
  SwitchCase(node, st, c) {
    for (const s of (node as E.SwitchCase).consequent) st.rw.listed.add(s);
    baseV.SwitchCase(node, st, c);
  },
  ForStatement: inLoop(baseV.ForStatement),
  WhileStatement: inLoop(baseV.WhileStatement),
  DoWhileStatement: inLoop(baseV.DoWhileStatement),
  CallExpression: callLike,
  NewExpression: callLike,
  TaggedTemplateExpression(node, st, c) {
    const n = node as E.TaggedTemplateExpression;
    operandsOnly(n.tag, st, c);
    c(n.quasi, st);
  },
  UnaryExpression(node, st, c) {
    const n = node as E.UnaryExpression;
    if (n.operator === 'delete') operandsOnly(n.argument, st, c);
    else c(n.argument, st);
  },
  ChainExpression(node, st, c) {
    rewriteChain(node as E.ChainExpression & N, st, c, true);
  },
  ForInStatement: inLoop(forInOf),
  ForOfStatement: inLoop(forInOf),
  Function(node, st, c) {
    const f = node as E.Function & N;
    const strict = st.strict || (f.body.type === 'BlockStatement' && hasUseStrict(f.body.body));
    const inner: State = { rw: st.rw, scope: st.scope, strict, loop: null, fn: null };
    for (const p of f.params) paramDefaults(p as N, inner, c);
    if (f.body.type === 'BlockStatement') inScope(st.rw, 'body', f.body, strict, (s) => c(f.body, s), f);
    else inScope(st.rw, 'arrow', f.body, strict, (s) => c(f.body, s, 'Expression'), f);
  },
  Class(node, st, c) {
    const k = node as E.Class;
    if (k.superClass) {
      c(k.superClass, st);
      for (const el of k.body.body)
        if (el.type === 'MethodDefinition' && el.kind === 'constructor')
          st.rw.derivedConstructors.add(el.value);
    }
    const strict: State = { rw: st.rw, scope: st.scope, strict: true, loop: null, fn: null };
    for (const el of k.body.body) {
      if (el.type === 'StaticBlock') {
        inScope(st.rw, 'body', el, true, (s) => baseV.StaticBlock(el, s, c));
        continue;
      }
      if (el.computed) c(el.key, strict);
      if (el.type === 'PropertyDefinition' && el.value) {
        const v = el.value;
        inScope(st.rw, 'wrap', v, true, (s) => c(v, s));
      } else if (el.type === 'MethodDefinition') c(el.value, strict);
    }
  },
};
