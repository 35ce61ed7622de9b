import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inspect, promisify } from 'node:util';
import { runInThisContext } from 'node:vm';
import fc from 'fast-check';
// run() spawns node with the built register.js next to it, so it is taken from dist (npm test builds first).
import { run } from '../../dist/node/run.js';
import type { Runtime } from '../../src/hooks/contract.js';
import { installHooks, installRuntime } from '../../src/hooks/install.js';
import { OBSERVED_METHODS } from '../../src/hooks/names.js';
import { passthrough } from '../../src/hooks/thread.js';
import { notSharedCache } from '../../src/hooks/views.js';
import { instrument } from '../../src/instrument/instrument.js';

const hooks = installHooks();
const FIXTURES = fileURLToPath(new URL('../fixtures/instrument/', import.meta.url));
const REGISTER = fileURLToPath(new URL('../../dist/node/register.js', import.meta.url));

/** Shared accesses seen by the recording runtime: `R line:col` / `W line:col`. */
let events: string[] = [];
const recorder: Runtime = {
  get(o, k, site) {
    const l = hooks.siteLocation(site);
    events.push(`R ${l.line}:${l.column}`);
    return passthrough.get(o, k, site);
  },
  set(o, k, v, site) {
    const l = hooks.siteLocation(site);
    events.push(`W ${l.line}:${l.column}`);
    return passthrough.set(o, k, v, site);
  },
};
installRuntime(recorder);

/** Runs `body` as a function body, plain or instrumented; returns `inspect` of its result or of what it threw. */
function runBody(body: string, instrumented: boolean): string {
  const source = `(function () {\n${body}\n})`;
  const code = instrumented ? instrument(source, { file: 'snippet.js', module: false }).code : source;
  try {
    return inspect((runInThisContext(code) as () => unknown)(), { depth: 6 });
  } catch (e) {
    return `threw ${(e as Error).constructor.name}`;
  }
}

function equivalent(body: string): void {
  const plain = runBody(body, false);
  const inst = runBody(body, true);
  assert.equal(inst, plain, `instrumented differs for:\n${body}`);
}

const SHARED = 'const s = new Int32Array(new SharedArrayBuffer(32)); const log = [];';
const CORPUS: Record<string, string> = {
  'reads and writes': `${SHARED} const a = [1, 2, 3]; s[1] = a[2]; a[0] = s[1] + a[1]; return [a, s];`,
  'Atomics calls (rewritten with their site), a local Atomics, spread arguments': `${SHARED}
    const r = [Atomics.add(s, 0, 5), Atomics.sub(s, 0, 2), Atomics.load(s, 0), Atomics.store(s, 1, 7),
      Atomics.exchange(s, 1, 3), Atomics.compareExchange(s, 1, 3, 4), Atomics.and(s, 1, 6), Atomics.or(s, 2, 1),
      Atomics.xor(s, 2, 3), Atomics.notify(s, 0, 1), Atomics.wait(s, 3, 1, 0), Atomics.add(...[s, 4, 2]),
      Atomics.add(s, Atomics.load(s, 0) - 3, Atomics.load(s, 4)), Atomics.isLockFree(4)];
    const local = () => { const Atomics = { add: () => 'local' }; return Atomics.add(s, 0, 1); };
    return [r, local(), s];`,
  'TypedArray constructors (the first argument wrapped), spread, shadowed names, no argument': `${SHARED}
    s[3] = 9; const f = new Float64Array(s); const b = new Uint8Array(s.buffer, 4, 8); const n = new Int16Array(3);
    const sp = new Int32Array(...[s]); const g = new BigInt64Array(2); const c = new Uint8Array((log.push(1), s));
    const local = (Int8Array) => new Int8Array(s); const d = new Uint8Array([s[3], s[3] + 1]);
    return [f, b, n, sp, g, c, local(Array), d, log];`,
  'compound operators': `${SHARED} const a = [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]; const ops = [];
    a[0] += 3; a[1] -= 3; a[2] *= 3; a[3] /= 2; a[4] %= 4; a[5] **= 2; a[6] <<= 2; a[7] >>= 1; a[8] >>>= 1;
    a[9] |= 8; a[10] &= 3; a[11] ^= 5; s[0] = -9; s[0] >>>= 1; s[1] **= 2; s[2] += 5; return [a, s];`,
  'logical assignment short circuit': `${SHARED} const a = [0, 1, null, undefined, '', 'x'];
    const f = (v) => { log.push(v); return v; };
    const r = [a[0] ||= f('a'), a[1] ||= f('b'), a[2] ??= f('c'), a[5] ??= f('d'), a[4] &&= f('e'), a[5] &&= f('g')];
    s[0] ||= 4; s[0] ||= 5; s[1] &&= 6; s[2] ??= 7; return [r, a, log, s];`,
  'update forms': `${SHARED} const a = [1, '5', null, {}]; const r = [a[0]++, ++a[0], a[1]--, --a[1], a[2]++, a[3]++];
    r.push(s[3]++, ++s[3], s[3]--, --s[3]); return [r, a, s];`,
  'BigInt64Array ++ and compound': `const b = new BigInt64Array(new SharedArrayBuffer(16)); const c = new BigUint64Array(2);
    const r = [b[0]++, ++b[0], b[1]--, c[0]--, c[1] += 5n]; return [r, b, c];`,
  'BigInt mixed with number throws': `const b = new BigInt64Array(2); b[0] += 1;`,
  'evaluation order': `const log = []; const t = (n, v) => (log.push(n), v);
    const a = [0, 1, 2]; t('o', a)[t('k', 1)] = t('v', 9); t('o2', a)[t('k2', 2)] += t('v2', 1);
    t('o3', a)[t('k3', 0)]++; const x = t('o4', a)[t('k4', 0)]; return [a, x, log];`,
  'key conversion count': `const log = []; const k = { toString() { log.push('ts'); return 'p'; } }; const o = { p: 1 };
    o[k] += 1; o[k]++; o[k] ||= 3; o[k] = 4; const x = o[k]; return [o, log, x];`,
  'object reassigned by key': `let a = [1, 2]; const b = [3, 4]; a[(a = b, 0)] = 10; return [a, b];`,
  'getters and setters with computed keys': `const log = []; const o = { get ['x' + 1]() { log.push('get'); return 5; },
    set ['x' + 1](v) { log.push('set ' + v); } }; const k = 'x1'; o[k] += 1; o[k]++; o[k] = 2; return [log, o[k]];`,
  proxies: `const log = []; const p = new Proxy({}, { get: (t, k) => (log.push('get ' + String(k)), 1),
    set: (t, k, v) => (log.push('set ' + String(k) + ' ' + v), true) }); const k = 'z'; p[k] += 2; p[k]++; p[k] = 0;
    return log;`,
  'strings and arguments': `function f() { const s = 'hello'; arguments[0] = s[1] + s[4]; return [arguments[0], arguments[1], s[9]]; }
    return f('a', 'b');`,
  'array holes and out of bounds': `const a = [1, , 3]; const t = new Float64Array(2); const r = [a[1], 1 in a, t[5], t[-1]];
    a[5] = 1; t[7] = 3; return [r, a, t, a.length];`,
  'sloppy failed writes are silent': `const s = 'abc'; s[0] = 'z'; const f = Object.freeze([1]); f[0] = 2; [f[0]] = [9];
    return [s, f];`,
  'strict failed writes throw': `'use strict'; const f = Object.freeze([1]); f[0] = 2;`,
  'strict failed destructuring throws': `'use strict'; const f = Object.freeze([1]); [f[0]] = [9];`,
  'null base throws after evaluating the value': `const log = []; try { null[(log.push('k'), 0)] = (log.push('v'), 1); }
    catch (e) { log.push(e.constructor.name); } return log;`,
  'calls keep this': `const o = { n: 4, m() { return this.n; } }; const k = 'm'; const a = [function () { return this.length; }];
    return [o[k](), a[0](), (o[k])()];`,
  'class fields, static blocks, private names': `${SHARED} const k = 'f'; class C { [k] = s[0] + 1; #p = [5];
    static q = s[1]++; static { s[2] = C.q + 10; } get p() { return this.#p[0]; } }
    const c = new C(); return [c.f, c.p, C.q, s];`,
  'super element access is untouched': `class A { get x() { return 1; } } class B extends A { y(k) { return super[k]; } }
    return new B().y('x');`,
  'labels and loops': `${SHARED} outer: for (let i = 0; i < 4; i++) { for (let j = 0; j < 4; j++) { if (j > i) continue outer;
    s[i] += j; } } return s;`,
  generators: `${SHARED} function* g() { s[0] = yield s[1]; s[(yield 1)] += yield 2; } const it = g();
    const r = [it.next(), it.next(5), it.next(3), it.next(4), it.next()]; return [r, s];`,
  'async functions': `${SHARED} async function f(a) { a[await 1] = await 7; return a[1]; } const p = f(s); return [s, p instanceof Promise];`,
  'arrow expression bodies': `${SHARED} const g = () => 2; const f = (a, i) => a[i + g()] += a[i]; s[0] = 3; return [f(s, 0), s];`,
  'parameter defaults': `const k = () => 1; function f(a, x = a[k()], { [a[0]]: y } = { 5: 'y' }) { return [x, y]; }
    return f([5, 6]);`,
  'destructuring targets': `${SHARED} const a = []; const o = { p: 1, q: 2, r: [3] }; const k = () => 1;
    ({ p: a[0], q: s[k()], ...a[2] } = o); [s[2], [a[3]], ...a[4]] = [7, [8], 9, 10]; [a[5] = 6] = [];
    return [a, s];`,
  'for-in and for-of targets': `${SHARED} const a = []; for (s[0] of [1, 2, 3]) a.push(s[0]); for (a[9] in { x: 1 }) ;
    for ([a[7], s[1]] of [[4, 5]]) ; return [a, s];`,
  'optional chains': `${SHARED} const n = null; const o = { a: [s] }; s[1] = 4;
    return [n?.[0], o?.a[0][1], o.b?.[0][1], o.a?.[0]?.[1], s[1]?.toFixed(1)];`,
  'optional chains: one nullish link skips the rest, keys included': `const log = []; const t = (n, v) => (log.push(n), v);
    const n = null; const o = { a: [[5]] }; const r = [n?.[t('k1', 0)][t('k2', 0)], o.x?.[t('k3', 0)].y.z,
    o?.a[t('k4', 0)]?.[t('k5', 0)], o?.[t('k6', 'a')]?.[9]?.[t('k7', 0)], t('o', o)?.a[t('k8', 0)][0]];
    return [r, log];`,
  'optional chains: null links that are not optional still throw': `const o = { a: null }; const k = 'a';
    try { o?.[k][0]; } catch (e) { return e.constructor.name; }`,
  'optional calls keep this and their arguments': `const k = 'm'; const o = { n: [7, 8], m(i, ...r) { return [this.n, i, r]; } };
    const args = [2, 3]; return [o.m?.(0, ...args)[0][1], o?.[k]?.(1)[1], o.q?.()[0], o?.m(5)[2], o?.['m']?.(1).length];`,
  'optional chains: getters run once per link': `let gets = 0; const o = { get a() { gets++; return [[4]]; } };
    const i = 0; return [o?.a[i][0], o.a?.[i]?.[0], gets];`,
  'optional chains inside delete and calls keep their shape': `const o = { a: [{ x: 1 }], f: [function () { return this; }] };
    const i = 0; const d = delete o?.a[i].x; const self = (o?.f[i])(); return [d, o, self === o.f];`,
  'typeof and delete': `const o = { x: 1 }; const k = 'x'; const t = typeof o[k]; delete o[k]; return [t, o];`,
  'parenthesized targets': `const a = [1]; (a[0]) = 5; (a[0])++; (a[0]) += 1; return a;`,
  'comments and line breaks inside accesses': `const a = [1, 2];
    a[ /* c */ 1
    ] = a
    [0] + 1; return a;`,
  'nested element accesses': `${SHARED} const m = [[1, 2], [3, 4]]; s[m[1][0]] = m[0][s[0] + 1]; m[s[0]][s[3]] += 10;
    return [m, s];`,
  'DataView and non-index keys on views': `const d = new DataView(new SharedArrayBuffer(8)); const t = new Int8Array(4);
    d['x'] = 1; t['foo'] = 2; t['1.5'] = 3; return [d['x'], t['foo'], t['1.5'], t.length];`,
  'no semicolons: a rewritten statement does not continue the previous line': `${SHARED}
    const a = [1, 2]
    const k = 0
    a[k] = 5
    a[k]++
    s[k] += 2
    if (a) a[1] = a[k]
    a[0].toString()
    return [a, s]`,
};

describe('notSharedCache', () => {
  const pool = ['s1', 's2', 's3', 'p1', 'p2', 'p3', undefined];
  const isShared = (o: unknown) => typeof o === 'string' && o.startsWith('s');
  test('answers !isShared(o), whatever the order of the values asked', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pool), { maxLength: 40 }), (values) => {
        const notShared = notSharedCache(isShared);
        for (const v of values) assert.equal(notShared(v), !isShared(v), String(v));
      }),
    );
  });
  test('asks isShared nothing more about the last two values of each answer', () => {
    let calls = 0;
    const notShared = notSharedCache((o) => {
      calls++;
      return isShared(o);
    });
    for (let k = 0; k < 50; k++) for (const v of ['s1', 'p1', 's2', 'p2']) notShared(v);
    assert.equal(calls, 4);
    notShared('s3'); // the oldest shared value, s1, is forgotten; s2 is kept
    notShared('s2');
    assert.equal(calls, 5);
    notShared('s1');
    assert.equal(calls, 6);
  });
});

describe('instrumented code is equivalent to the original', () => {
  for (const [name, body] of Object.entries(CORPUS)) test(name, () => equivalent(body));

  test('property: random element-access expressions', () => {
    // h.s and h.a: objects read from a member (the member loop guards), which the swap below exchanges
    const target = fc.constantFrom('s', 'a', 'o', 'h.s', 'h.a');
    const key = fc.oneof(
      fc.constantFrom('0', '1', 'i', "'p'"),
      fc.nat(3).map((n) => `t(${n}, ${n % 2})`),
    );
    const leaf = fc.oneof(
      fc.constantFrom('1', 'i', '0n', 'null'),
      fc.nat(3).map((n) => `t(${n + 4}, ${n})`),
    );
    const expr = fc.letrec<{ e: string }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.tuple(target, key).map(([o, k]) => `${o}[${k}]`),
        fc
          .tuple(
            fc.constantFrom('s', 'a', 'o', 'n'),
            key,
            fc.constantFrom('', '?.[0]', '.p', '?.p', '?.toString()'),
          )
          .map(([o, k, rest]) => `${o}?.[${k}]${rest}`),
        fc
          .tuple(target, key, fc.constantFrom('=', '+=', '*=', '**=', '>>>=', '||=', '&&=', '??='), tie('e'))
          .map(([o, k, op, v]) => `(${o}[${k}] ${op} ${v})`),
        fc
          .tuple(target, key, fc.constantFrom('++', '--'), fc.boolean())
          .map(([o, k, op, pre]) => (pre ? `(${op}${o}[${k}])` : `(${o}[${k}]${op})`)),
        fc.tuple(tie('e'), tie('e')).map(([x, y]) => `t(9, ${x}) + ${y}`),
        fc.constant('t(10, (h.x = h.s, h.s = h.a, h.a = h.x, 0))'),
      ),
    }));
    fc.assert(
      // in a loop or not: a loop's accesses to invariant variables take the loop guards' path
      fc.property(fc.array(expr.e, { minLength: 1, maxLength: 4 }), fc.boolean(), (es, loop) => {
        const body = `const s = new Int32Array(new SharedArrayBuffer(16)); const a = [1, 2]; const o = { p: 3 }; const n = null;
          const h = { s, a }; const log = []; let i = 1; const t = (n, v) => (log.push(n), v); const r = []; const two = 2;
          ${loop ? 'for (let q = 0; q < two; q++)' : ''} {
          ${es.map((e) => `try { r.push(${e}); } catch (x) { r.push(x.constructor.name); }`).join('\n')}
          }
          return [r, s, a, o, h, log];`;
        equivalent(body);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the runtime sees each shared access once, in order, at its site', () => {
  const record = (body: string): string[] => {
    events = [];
    runBody(`const a = new Int32Array(new SharedArrayBuffer(16));\n${body}`, true);
    return events;
  };
  // Lines: 1 is `(function () {`, 2 the array, 3 the body.
  test('a[i]++ is a read then a write at the same site', () => {
    assert.deepEqual(record('let i = 1; a[i]++;'), ['R 3:12', 'W 3:12']);
  });
  test('a[i] ||= v writes only when a[i] is falsy', () => {
    assert.deepEqual(record('a[0] ||= 5; a[0] ||= 6;'), ['R 3:1', 'W 3:1', 'R 3:13']);
  });
  test('a[f()] = g(): f, g, then the write; the read of the right side is its own site', () => {
    assert.deepEqual(record('const f = () => a[1], g = () => a[2];\na[f()] = g();'), [
      'R 3:17',
      'R 3:33',
      'W 4:1',
    ]);
  });
  test('compound assignment reads, evaluates the right side, then writes', () => {
    assert.deepEqual(record('a[0] += a[1];'), ['R 3:1', 'R 3:9', 'W 3:1']);
  });
  test('non-shared arrays and typed arrays never reach the runtime', () => {
    assert.deepEqual(record('const b = new Int32Array(4), c = [1]; b[0] = c[0]; b[1]++; c[0] += b[0];'), []);
  });
  test('a site keeps working after seeing a non-shared view (the cache does not hide shared ones)', () => {
    const body =
      'const f = (x) => x[0]; f(new Int32Array(1)); f(new Int32Array(1)); f(a); f(new Int8Array(1)); f(a);';
    assert.deepEqual(record(body), ['R 3:18', 'R 3:18']);
  });
  test('loop guards: a shared view accessed in a loop is seen at every iteration', () => {
    const body = 'const b = [0, 0, 0];\nfor (let i = 0; i < 3; i++) { a[i] = b[i]; b[i] += a[i]; }';
    const r = instrument(`(function () {\nconst a = new Int32Array(4);\n${body}\n})`, {
      file: 'f.js',
      module: false,
    });
    assert.match(r.code, /__gl\$\d+ = [^;]*!__goldilocks\.shared\(a\)/, 'the loop guards a');
    assert.deepEqual(record(body), ['W 4:31', 'R 4:52', 'W 4:31', 'R 4:52', 'W 4:31', 'R 4:52']);
  });
  test('loop guards: an access a formatter broke over lines is copied on one line', () => {
    // c is shared, b is not: the loop guards both; the stack's line: the line of the return, in the code run
    const statement = (inner: string) =>
      `const b = new Float64Array(4), c = new Int32Array(new SharedArrayBuffer(16));\nfor (let i = 0; i < 3; i++)\n  b[i] =\n    ${inner} +\n    c[i];\nreturn [b, new Error('x').stack.split('\\n')[1].split(':').at(-2)];`;
    const guarded = (body: string) =>
      /\? b\[i\] = {5}/.test(instrument(`(function () {\n${body}\n})`, { file: 'f.js', module: false }).code);
    const plain = statement('2 * b[i + 1]');
    assert.ok(guarded(plain), 'the copy: its line terminators as spaces');
    assert.match(runBody(plain, true), /'7' \]$/, 'the lines after it did not move');
    equivalent(plain);
    // lines: 1 is `(function () {`, 2 the array of record, 3 the body
    assert.deepEqual(record(plain), ['R 7:5', 'R 7:5', 'R 7:5']);
    // a line terminator in a token, a comment: no copy, the per-access guard
    for (const inner of [
      '2 * // next\n      b[i + 1]',
      '("x\\\n".length) * b[i + 1]',
      '`\n`.length * b[i + 1]',
    ]) {
      assert.equal(guarded(statement(inner)), false, inner);
      equivalent(statement(inner));
    }
  });
  test('loop guards: a variable that may change during the loop keeps the per-access guard', () => {
    const cases: Record<string, string> = {
      'assigned in the loop': 'let b = new Int32Array(1); for (let i = 0; i < 2; i++) { b[0] = 1; b = a; }',
      'declared with var in the loop': 'for (let i = 0; i < 2; i++) { if (i) c[0] = 1; var c = a; }',
      'assigned by a closure':
        'let e = new Int32Array(1); const f = () => { e = a; }; for (let i = 0; i < 2; i++) { e[0] = 1; f(); }',
      'a parameter aliased by arguments':
        '(function (p) { for (let i = 0; i < 2; i++) { p[0] = 1; arguments[0] = a; } })(new Int32Array(1));',
      'reachable from eval':
        'let g = new Int32Array(1); for (let i = 0; i < 2; i++) { g[0] = 1; eval("g = a"); }',
      'a loop in a loop, the variable declared in the outer one':
        'for (let i = 0; i < 2; i++) { const h = i ? a : new Int32Array(1); for (let j = 0; j < 1; j++) h[j] = 1; }',
    };
    for (const [name, body] of Object.entries(cases))
      assert.equal(record(body).filter((e) => e.startsWith('W')).length, 1, name);
  });
  test('loop guards in minified code: a loop right before a rewritten statement, a loop as an if body, a labeled loop', () => {
    const body =
      'const f = (i, o, e) => {for(let c=1;c<i.length;c++){const l=i[c];i[c-1]=l,o[l]--}o[e]=void 0;if(i)for(let c=0;c<1;c++)i[c]+=2;L:for(let j=0;j<2;j++){if(j)continue L;o[j]++}return [i, o]}; return [f([1, 2, 3], [5, 5, 5, 5], 2), f(new Int32Array(new SharedArrayBuffer(12)), new Float64Array(4), 1)];';
    equivalent(body);
    // both arrays shared: every access is seen (the loop twice, the statement after it, the if body, the labeled loop)
    const loop = ['R 3:61', 'W 3:66', 'R 3:75', 'W 3:75'];
    assert.deepEqual(record(body.replace('new Float64Array(4)', 'a')), [
      ...loop,
      ...loop,
      'W 3:82',
      'R 3:119',
      'W 3:119',
      'R 3:166',
      'W 3:166',
    ]);
  });
  test('member loop guards: an object read from this.p or v.p in a loop is seen at every shared access', () => {
    const r = instrument('(function (v, n) { for (let i = 0; i < n; i++) { this.b[i] = v.c[i]; } })', {
      file: 'f.js',
      module: false,
    });
    assert.match(
      r.code,
      /__gl\$\d+ = __goldilocks\.peek\(v, "c"\), __gl\$\d+ = __goldilocks\.peek\(this, "b"\); for/,
    );
    const cls =
      'class C { constructor(b) { this.b = b; } f(n) { let s = 0; for (let i = 0; i < n; i++) s += this.b[i]; return s; } }';
    assert.deepEqual(record(`${cls}\nnew C(a).f(2); new C(new Int32Array(2)).f(2);`), ['R 3:93', 'R 3:93']);
    // the member becomes shared during the loop, then stops being shared
    assert.deepEqual(
      record(
        'const h = { b: new Int32Array(2) }, n = 3;\nfor (let i = 0; i < n; i++) { h.b[0] = i; h.b = i ? new Int32Array(1) : a; }',
      ),
      ['W 4:31'],
    );
    assert.deepEqual(
      record(
        'const h = { b: a }, n = 3;\nfor (let i = 0; i < n; i++) { h.b[1] += i; if (i === 1) h.b = new Int32Array(2); }',
      ),
      ['R 4:31', 'W 4:31', 'R 4:31', 'W 4:31'],
    );
  });
  test('member loop guards: one peek on entry to the outermost loop that is not short (x < literal <= 16)', () => {
    const peeks = (body: string) =>
      (
        instrument(`(function (n) {\n${body}\n})`, { file: 'f.js', module: false }).code.match(
          /peek\(this, "m"\); for \(let \w/g,
        ) ?? []
      ).join();
    assert.equal(
      peeks('for (let i = 0; i < n; i += 4) { for (let j = 0; j < 4; j++) this.m[i + j] = 0; }'),
      'peek(this, "m"); for (let i',
    );
    assert.equal(
      peeks('for (let c = 0; c < 3; c++) { for (let i = 0; i < n; i++) this.m[i] = c; }'),
      'peek(this, "m"); for (let i',
    );
    assert.equal(peeks('for (let k = 0; k <= 16; k++) this.m[k] = 0;'), '');
    assert.equal(peeks('for (let k = 0; k < 17; k++) this.m[k] = 0;'), 'peek(this, "m"); for (let k');
  });
  test('member loop guards read nothing a program could observe before the loop', () => {
    // a getter and a Proxy's get trap run once per access, as in the original; none before the loop
    equivalent(
      'const log = []; const h = { get b() { log.push("get"); return log; } }, n = 2; for (let i = 0; i < n; i++) h.b[i] = i; return log;',
    );
    equivalent(
      'const log = []; const h = new Proxy({ b: [0] }, { get(t, k) { log.push(k); return t[k]; }, getOwnPropertyDescriptor(t, k) { log.push("gopd"); return Reflect.getOwnPropertyDescriptor(t, k); } }), n = 2; for (let i = 0; i < n; i++) h.b[0] += i; return log;',
    );
    // `this` before super(): not read on entry to a loop that does not run
    equivalent(
      'const z = 0; class B {} class D extends B { constructor() { for (let i = 0; i < z; i++) this.b[i]; super(); this.b = [1]; } } return new D().b;',
    );
    // a member on the prototype chain, a member that is missing, a primitive `this`
    equivalent(
      'const p = { b: [1, 2] }; const h = Object.create(p); const r = [], n = 2; for (let i = 0; i < n; i++) { r.push(h.b[i], h.c?.[i]); if (i) h.b = [3, 4]; } return [r, h.b];',
    );
    equivalent(
      'const f = function (n) { const r = []; for (let i = 0; i < n; i++) r.push(this.length, this.x[i]); return r; }; try { return f.call("ab", 2); } catch (e) { return e.constructor.name; }',
    );
  });
  test('loop guards: a variable in its temporal dead zone is not read before the loop runs', () => {
    equivalent('for (let i = 0; i < 0; i++) d[i]; const d = new Int32Array(1); return d;');
    equivalent(
      'const f = () => { for (let i = 0; i < 0; i++) d[i]; }; f(); const d = new Int32Array(1); return d;',
    );
  });
  test('destructuring and for-of targets are writes', () => {
    assert.deepEqual(record('[a[0], a[1]] = [1, 2]; for (a[2] of [3]) ;'), ['W 3:2', 'W 3:8', 'W 3:29']);
  });
  test('element accesses in optional chains are sites; none is read when a link is nullish', () => {
    assert.deepEqual(
      record('const n = null, o = { a }; let i = 1;\nn?.[i]; a?.[i]; o?.a[2]; n?.a[0]; o.a?.[i]?.toFixed();'),
      ['R 4:9', 'R 4:17', 'R 4:35'],
    );
    const r = instrument('x?.[0]; y[1]?.z; u?.v[w];', { file: 'f.js', module: true });
    assert.equal(r.sites, 3);
    assert.deepEqual(r.warnings, []);
  });
  test('an optional chain that is a callee, a delete operand or calls a super method keeps its shape, with a warning', () => {
    const r = instrument(
      '(a?.[i][j])(); delete a?.[i][j]; a?.[k](); class C extends B { m() { super.f?.()[0]; } }',
      {
        file: 'f.js',
        module: false,
      },
    );
    assert.equal(r.sites, 0);
    assert.deepEqual(r.warnings, [
      'f.js:1:2: element access in an optional chain is not instrumented',
      'f.js:1:23: element access in an optional chain is not instrumented',
      'f.js:1:70: element access in an optional chain is not instrumented',
    ]);
  });
  test('an Atomics call gets a static site, pending while the call runs', () => {
    const code = (src: string) => instrument(src, { file: 'f.js', module: false }).code;
    assert.match(code('Atomics.add(a, 0, 1);'), /__goldilocks\.atomics\.add\(__gl\$m, 0, a, 0, 1\)/);
    assert.match(code('Atomics.add(...x);'), /__goldilocks\.atomicsRest\.add\(__gl\$m, 0, \.\.\.x\)/);
    assert.match(
      code('Atomics.wait(a, 0, 1, 2, 3);'),
      /__goldilocks\.atomicsRest\.wait\(__gl\$m, 0, a, 0, 1, 2, 3\)/,
    );
    for (const kept of [
      'Atomics.add?.(a, 0, 1);',
      'Atomics?.add(a, 0, 1);',
      'Atomics.add /* c */ (a, 0, 1);',
      'Atomics.isLockFree(4);',
      'function f(Atomics) { return Atomics.add(a, 0, 1); }',
    ])
      assert.equal(instrument(kept, { file: 'f.js', module: false }).sites, 0, kept);
    const add = Atomics.add;
    const seen: string[] = [];
    Atomics.add = ((...args: Parameters<typeof add>) => {
      const l = hooks.siteLocation(hooks.pendingSite());
      seen.push(`${l.line}:${l.column}`);
      return add(...args);
    }) as typeof add;
    try {
      runBody(
        'const a = new Int32Array(new SharedArrayBuffer(8));\nreturn Atomics.add(a, 0, Atomics.add(a, 1, 1));',
        true,
      );
    } finally {
      Atomics.add = add;
    }
    assert.deepEqual(seen, ['3:26', '3:8']); // the inner call runs first
    assert.equal(hooks.pendingSite(), -1);
  });
  test('a call of an observed method name gets a static site, pending with its callee while it runs', () => {
    const code = (src: string) => instrument(src, { file: 'f.js', module: false }).code;
    // [f, g, t, a]: the method, the picked function, the receiver, the first argument evaluated apart
    const shape = (o: string, r: string, [f, g, t, a]: string[], text: string, arg0: string, args: string) =>
      `__goldilocks.call((${g} = __goldilocks.callee${a ? '1' : ''}(${o}, ${f} = ${r}.${text.split('.').pop()}, ` +
      `${OBSERVED_METHODS.indexOf(text.split('.').pop()!)}${a ? `, ${a} = ${arg0}` : ''})) !== null ? ` +
      `(${t} = ${r}, ${g}) : (${t} = __goldilocks.site(__gl$m, 0, '${text}', ${r}, ${f}), __goldilocks.sited), ` +
      `${t}${a ? `, ${a}` : ''}${args})`;
    assert.ok(
      code('b.copy(t, 1);').includes(
        shape('(__gl$1 = b)', '__gl$1', ['__gl$2', '__gl$3', '__gl$4', '__gl$5'], 'b.copy', 't', ', 1'),
      ),
    );
    assert.ok(
      code('this.d.set(a);').includes(
        shape('(__gl$1 = this.d)', '__gl$1', ['__gl$2', '__gl$3', '__gl$4', '__gl$5'], 'this.d.set', 'a', ''),
      ),
    );
    assert.ok(
      code('b.fill();').includes(shape('b', 'b', ['__gl$1', '__gl$2', '__gl$3', ''], 'b.fill', '', '')),
    );
    assert.ok(
      code('b.set(...x, 1);').includes(
        shape('b', 'b', ['__gl$1', '__gl$2', '__gl$3', ''], 'b.set', '', ', ...x, 1'),
      ),
    );
    // a Buffer number accessor: every argument into a temporary inside the test, then `direct[k]` called itself where
    // it is `g`; encodeInto: the first two, the test given the second
    const e = OBSERVED_METHODS.indexOf('encodeInto');
    assert.ok(
      code('x.encodeInto(s, d, 3);').includes(
        `__goldilocks.callee1((__gl$1 = x), __gl$2 = __gl$1.encodeInto, ${e}, (__gl$5 = s, __gl$6 = d))) !== null ? ` +
          `(__gl$4 = __gl$1, __gl$3) : (__gl$4 = __goldilocks.site(__gl$m, 0, 'x.encodeInto', __gl$1, __gl$2), ` +
          `__goldilocks.sited), __gl$4, __gl$5, __gl$6, 3)`,
      ),
    );
    const k = OBSERVED_METHODS.indexOf('writeUInt16LE');
    const pick = `__gl$3 !== null ? (__gl$4 = __gl$1, __gl$3) : (__gl$4 = __goldilocks.site(__gl$m, 0, 'b.writeUInt16LE', __gl$1, __gl$2), __goldilocks.sited)`;
    assert.ok(
      code('b.writeUInt16LE(v, f(1),);').includes(
        `((__gl$3 = __goldilocks.callee1((__gl$1 = b), __gl$2 = __gl$1.writeUInt16LE, ${k}, ` +
          `(__gl$5 = v, __gl$6 = f(1), __gl$5))), __gl$3 === __goldilocks.direct[${k}] ? ` +
          `__goldilocks.call(__goldilocks.direct[${k}], __gl$1, __gl$5, __gl$6) : ` +
          `__goldilocks.call(${pick}, __gl$4, __gl$5, __gl$6))`,
      ),
    );
    assert.ok(
      code('b.readUInt8();').includes(
        `((__gl$2 = __goldilocks.callee(b, __gl$1 = b.readUInt8, ${OBSERVED_METHODS.indexOf('readUInt8')})), ` +
          `__gl$2 === __goldilocks.direct[${OBSERVED_METHODS.indexOf('readUInt8')}] ? `,
      ),
    );
    assert.ok(
      code('b.writeUInt8(...x);').includes(
        shape('b', 'b', ['__gl$1', '__gl$2', '__gl$3', ''], 'b.writeUInt8', '', ', ...x'),
      ),
    );
    for (const kept of [
      'a?.copy(x);',
      'a.copy?.(x);',
      'a?.b.copy(x);',
      'a[k].copy(x);',
      'f().copy(x);',
      'a.copy /* c */ (x);',
      'a.notObserved(x);',
      'class C extends Map { set(k, v) { return super.set(k, v); } }',
    ])
      assert.doesNotMatch(code(kept), /__goldilocks\.(call|site)/, kept);
    const slice = Uint8Array.prototype.slice;
    const set = Uint8Array.prototype.set;
    const seen: string[] = [];
    const at = (f: unknown) => {
      const l = hooks.siteLocation(hooks.pendingSite());
      seen.push(`${l.line}:${l.column}${hooks.pendingCallee() === f ? '' : ' (another callee)'}`);
    };
    Uint8Array.prototype.slice = function (this: Uint8Array, ...args) {
      at(Uint8Array.prototype.slice);
      return slice.apply(this, args);
    };
    Uint8Array.prototype.set = function (this: Uint8Array, ...args) {
      at(Uint8Array.prototype.set);
      return set.apply(this, args as Parameters<typeof set>);
    };
    installRuntime(recorder); // the hooks compare with the methods views reach when a runtime is installed
    try {
      runBody('const b = new Uint8Array(4);\nreturn b.set(b.slice(1));', true);
    } finally {
      Uint8Array.prototype.slice = slice;
      Uint8Array.prototype.set = set;
      installRuntime(recorder);
    }
    assert.deepEqual(seen, ['3:14', '3:8']); // the inner call runs first
    assert.equal(hooks.pendingSite(), -1);
    assert.equal(hooks.pendingCallee(), undefined);
  });
  test('a rewritten method call keeps the order of evaluation, `this` and the TypeErrors of the plain call', () => {
    const message = (body: string, instrumented: boolean) => {
      const source = `(function () {\n${body}\n})`;
      const text = instrumented ? instrument(source, { file: 'f.js', module: false }).code : source;
      try {
        return `returned ${inspect((runInThisContext(text) as () => unknown)())}`;
      } catch (e) {
        return `threw ${(e as Error).constructor.name}: ${(e as Error).message}`;
      }
    };
    for (const body of [
      `const log = [];
       const arg = (x) => (log.push('arg ' + x), x);
       const o = { get b() { log.push('get b'); return { get set() { log.push('get set'); return function (...a) { log.push(this === o ? 'o' : 'b', ...a); return this; }; } }; } };
       o.b.set(arg(1), arg(2));
       return log;`,
      'const o = {}; o.copy(1);',
      'const o = { copy: 5 }; o.copy(1);',
      'const o = {}; o.x.copy(1);',
      'const o = { b: null }; o.b.toString();',
      'const o = { toString() { return this === o; } }; return o.toString();',
      'let o = { set() { return this === o0; } }; const o0 = o; return o.set((o = {}));',
      'const v = new Uint8Array(2); v.set = 5; v.set(1);',
      `const log = []; const v = new Uint8Array(4); const w = new Uint8Array([1, 2]);
       const o = { get v() { log.push('get v'); return v; } };
       o.v.set((log.push('arg 0'), w.slice(w[0])), (log.push('arg 1'), w[1]));
       v.fill(v.indexOf(v[1]), ...[1, 3]);
       const b = Buffer.alloc(4); b.copy(b.subarray(0, 2), 0, 2);
       return [log, v, b];`,
      'const v = new Uint8Array(2); v.set(); return v;',
      // the lines after a call whose first argument starts on a later line stay where they were
      `const v = new Uint8Array(2);
       v.set( // the source
         [1],
         1);
       v.fill
         (0);
       Atomics
         .add(new Int32Array(1), 0, 1);
       v.fill
       (
         ...[2]);
       return Number(/:(\\d+):\\d+\\)?$/.exec(new Error().stack.split('\\n')[1])[1]);`,
      'const v = new Uint8Array(2); v.set((() => { throw new RangeError("first"); })());',
      `const log = []; const v = new Uint8Array(2);
       v.set((log.push('arg'), [7]), (log.push('offset'), 1));
       return [log, v];`,
      // Buffer number accessors: the arguments after the first evaluated apart, in order
      `const log = []; const b = Buffer.alloc(8);
       const o = { get b() { log.push('get b'); return b; } };
       o.b.writeUInt16LE((log.push('arg 0'), 513), (log.push('arg 1'), 2), (log.push('arg 2'), 9));
       return [log, b.readUInt16LE(2), b.readUInt8(), b.readUInt8(...[3])];`,
      // DataView get and set methods (called like the Buffer accessors): the arguments evaluated apart, in order
      `const log = []; const d = new DataView(new SharedArrayBuffer(16));
       const o = { get d() { log.push('get d'); return d; } };
       o.d.setFloat64((log.push('arg 0'), 8), (log.push('arg 1'), 2.5), (log.push('arg 2'), true));
       return [log, d.getFloat64(8, true), d.getFloat64(8), d.getUint8(...[15]), new DataView(new ArrayBuffer(4)).getInt16(1)];`,
      'new DataView(new ArrayBuffer(4)).getFloat64(0);',
      'new DataView(new SharedArrayBuffer(4)).setInt32(2, 1);',
      'const o = { getFloat64(...a) { return [this === o, a.length, ...a]; } }; return o.getFloat64(1, 2);',
      'let d = new DataView(new ArrayBuffer(2)); return [d.getUint8((d = new DataView(new ArrayBuffer(1)), 1))];',
      'new DataView(new ArrayBuffer(2)).setUint8(0, (() => { throw new RangeError("second"); })());',
      'const o = { readUInt32LE(...a) { return [this === o, a.length, ...a]; } }; return o.readUInt32LE(1, 2, 3);',
      'const o = { readUInt8: 5 }; o.readUInt8(0);',
      'const o = {}; o.readUInt8();',
      'let b = Buffer.from([1, 2]); return [b.readUInt8((b = Buffer.from([5, 6]), 1)), b.readUInt8(1)];',
      'Buffer.alloc(2).readUInt32LE(0);',
      'Buffer.alloc(2).writeUInt8(1, (() => { throw new RangeError("second"); })());',
      // encodeInto: both first arguments evaluated apart, in order
      `const log = []; const e = new TextEncoder(); const d = new Uint8Array(4);
       const r = e.encodeInto((log.push('arg 0'), 'hé'), (log.push('arg 1'), d), (log.push('arg 2'), 0));
       return [log, r, d];`,
      'const o = { encodeInto(...a) { return [this === o, a.length, ...a]; } }; return o.encodeInto(1, 2, 3);',
      'let e = new TextEncoder(); return e.encodeInto((e = null, "a"), new Uint8Array(1));',
      'new TextEncoder().encodeInto("a", (() => { throw new RangeError("second"); })());',
      'new TextEncoder().encodeInto("a", 5);',
      `const b = Buffer.alloc(4);
       b.writeUInt8(
         7,
         1,
       );
       return [...b, Number(/:(\\d+):\\d+\\)?$/.exec(new Error().stack.split('\\n')[1])[1])];`,
    ])
      assert.equal(message(body, true), message(body, false), body);
  });
  test("a rewritten call on a receiver that is not a view calls the method itself, unless it is one of the runtime's sited methods", () => {
    const sitedOf = (body: string) =>
      runBody(
        `const pending = () => __goldilocks.pendingSite();\n${body}\nreturn [o.set(1), o.decode(2)];`,
        true,
      );
    const decode = () => hooks.pendingSite() >= 0;
    const o = 'const o = { set() { return pending() >= 0; }, decode: globalThis.__decode };';
    (globalThis as Record<string, unknown>).__decode = decode;
    try {
      assert.equal(sitedOf(o), '[ false, false ]');
      installRuntime({ ...recorder, sitedMethods: [decode] });
      assert.equal(sitedOf(o), '[ false, true ]');
    } finally {
      installRuntime(recorder);
      delete (globalThis as Record<string, unknown>).__decode;
    }
  });
  test("a DataView's get or set method: its original on a DataView not over shared memory, sited on one over shared memory", () => {
    const proto = DataView.prototype as unknown as Record<string, unknown>;
    const builtin = proto.getUint8;
    const method = () => (hooks.pendingSite() >= 0 ? 'sited' : 'not sited');
    const original = () => 'original';
    proto.getUint8 = method;
    try {
      installRuntime({ ...recorder, originals: new Map([[method, { original }]]) });
      assert.equal(
        runBody(
          `const s = new DataView(new SharedArrayBuffer(8)); const p = new DataView(new ArrayBuffer(8));
           const t = new DataView(new SharedArrayBuffer(8), 4); const o = { getUint8: () => 'own' };
           return [s.getUint8(0), p.getUint8(0), t.getUint8(0), o.getUint8(0)];`,
          true,
        ),
        "[ 'sited', 'original', 'sited', 'own' ]",
      );
    } finally {
      proto.getUint8 = builtin;
      installRuntime(recorder);
    }
  });
  test('a method of a name the runtime sites later is sited once the runtime has added it, not before', () => {
    const sitedOf = (body: string) =>
      runBody(
        `const pending = () => __goldilocks.pendingSite();\n${body}\nreturn [o.atomic(1), p.atomic(2), o.set(3)];`,
        true,
      );
    const later = () => hooks.pendingSite() >= 0;
    const other = () => hooks.pendingSite() >= 0;
    const objects = `const o = { atomic: globalThis.__later, set: globalThis.__later };
      const p = { atomic: globalThis.__other };`;
    Object.assign(globalThis, { __later: later, __other: other });
    const methods = new Set<unknown>();
    try {
      installRuntime({ ...recorder, sitedLater: { names: ['atomic'], methods } });
      assert.equal(sitedOf(objects), '[ false, false, false ]');
      methods.add(later);
      // of the name only: the same method called by another name is not sited
      assert.equal(sitedOf(objects), '[ true, false, false ]');
    } finally {
      installRuntime(recorder);
      delete (globalThis as Record<string, unknown>).__later;
      delete (globalThis as Record<string, unknown>).__other;
    }
  });
  /**
   * `body` run instrumented (runBody) with `method` at `globalThis.__sited`, a sited method of the runtime whose
   * original `original` the runtime gave, touching shared memory through argument `argument`.
   */
  const withSitedMethod = (method: unknown, original: unknown, argument: number, body: string): string => {
    (globalThis as Record<string, unknown>).__sited = method;
    installRuntime({
      ...recorder,
      sitedMethods: [method],
      originals: new Map([[method, { original, argument }]]),
    });
    try {
      return runBody(body, true);
    } finally {
      installRuntime(recorder);
      delete (globalThis as Record<string, unknown>).__sited;
    }
  };
  test('a sited method whose original the runtime gave calls it on a first argument that is a TypedArray not over shared memory', () => {
    assert.equal(
      withSitedMethod(
        (..._: unknown[]) => `sited ${hooks.pendingSite() >= 0}`,
        (..._: unknown[]) => 'original',
        0,
        `const o = { decode: globalThis.__sited };
        const plain = new Uint8Array(2);
        const shared = new Uint8Array(new SharedArrayBuffer(2));
        return [o.decode(plain), o.decode(shared), o.decode(plain.buffer), o.decode(new DataView(plain.buffer)),
          o.decode(), o.decode(...[plain]), o.decode(plain, 1)].join(', ');`,
      ),
      "'original, sited true, sited true, sited true, sited true, sited true, original'",
    );
  });
  test('a sited method that may touch shared memory through its second argument calls its original on a destination not over shared memory', () => {
    assert.equal(
      withSitedMethod(
        (...args: unknown[]) => `sited ${hooks.pendingSite() >= 0} ${args.length}`,
        (...args: unknown[]) => `original ${args.length}`,
        1,
        `const o = { encodeInto: globalThis.__sited, decode: globalThis.__sited };
        const plain = new Uint8Array(2);
        const shared = new Uint8Array(new SharedArrayBuffer(2));
        return [o.encodeInto('a', plain), o.encodeInto('a', shared), o.encodeInto(plain, shared),
          o.encodeInto('a'), o.encodeInto(...['a', plain]), o.encodeInto('a', ...[plain]), o.encodeInto('a', plain, 3),
          o.decode(plain)].join(', ');`,
      ),
      // the destination decides; another name's call, which evaluates the first argument apart, is sited
      "'original 2, sited true 2, sited true 2, sited true 1, sited true 2, sited true 2, original 3, sited true 1'",
    );
  });
  test("a rewritten call on a view is sited when it reaches a view's built-in method by that name, whatever the receiver's class", () => {
    const sited = (body: string) => {
      const seen: string[] = [];
      const set = Uint8Array.prototype.set;
      const fill = Buffer.prototype.fill;
      Uint8Array.prototype.set = function (this: Uint8Array, ...args) {
        seen.push(`set ${hooks.pendingSite() >= 0}`);
        return set.apply(this, args as Parameters<typeof set>);
      };
      Buffer.prototype.fill = function (this: Buffer, ...args) {
        seen.push(`fill ${hooks.pendingSite() >= 0}`);
        return fill.apply(this, args as Parameters<typeof fill>);
      };
      installRuntime(recorder);
      try {
        seen.push(
          `returned ${runBody(`const pending = () => __goldilocks.pendingSite() >= 0;\n${body}`, true)}`,
        );
      } finally {
        Uint8Array.prototype.set = set;
        Buffer.prototype.fill = fill;
        installRuntime(recorder);
      }
      return seen.join(', ');
    };
    assert.equal(
      sited('const v = new Uint8Array(2); v.set([1]); const b = Buffer.alloc(2); b.fill(1); v.set([2]);'),
      'set true, fill true, set true, returned undefined',
    );
    // a subclass's own method, a user's method on a view, a view's method on an object that is not a view: direct
    assert.equal(
      sited(`class V extends Uint8Array { set(a) { super.set(a); } }
        const x = new V(2);
        x.set([1]);
        const w = new Uint8Array(2);
        w.fill = function () { return pending(); };
        const o = { set: Uint8Array.prototype.set };
        try { o.set([1]); } catch {}
        return w.fill();`),
      'set false, set false, returned false',
    );
  });
  test('a rewritten call of a replaced view method on a view that is not shared calls the original the runtime gave', () => {
    const proto = Object.getPrototypeOf(Uint8Array.prototype) as { fill: (...args: unknown[]) => unknown };
    const fill = proto.fill;
    const seen: string[] = [];
    const patched = function (this: Uint8Array, ...args: unknown[]) {
      seen.push(`patched ${hooks.pendingSite() >= 0}`);
      return fill.apply(this, args);
    };
    const original = function (this: Uint8Array, ...args: unknown[]) {
      seen.push('original');
      return fill.apply(this, args);
    };
    const run = (argument?: number) => {
      seen.length = 0;
      proto.fill = patched;
      installRuntime({ ...recorder, originals: new Map([[patched, { original, argument }]]) });
      try {
        const result = runBody(
          `const v = new Uint8Array(2);
          const s = new Uint8Array(new SharedArrayBuffer(2));
          const seven = [7];
          v.fill(1);
          s.fill(2);
          v.fill(3);
          s.fill(4);
          v.fill(s);
          v.fill(...seven);
          v.fill();
          return [...v, ...s];`,
          true,
        );
        assert.equal(result, '[ 0, 0, 4, 4 ]');
      } finally {
        proto.fill = fill;
        installRuntime(recorder);
      }
      return seen.join(', ');
    };
    // receiver only: the original on the plain view whatever the arguments
    assert.equal(run(), 'original, patched true, original, patched true, original, original, original');
    // through the first argument too: sited when it is shared, or not evaluated apart (a spread, none)
    assert.equal(
      run(0),
      'original, patched true, original, patched true, patched true, patched true, patched true',
    );
  });
  test("a rewritten call of a Buffer number accessor on memory that is not shared calls the runtime's original itself", () => {
    const proto = Buffer.prototype as unknown as { readUInt8: (...args: unknown[]) => unknown };
    const readUInt8 = proto.readUInt8;
    const seen: string[] = [];
    const patched = function (this: Buffer, ...args: unknown[]) {
      seen.push(`patched ${hooks.pendingSite() >= 0} ${args.length}`);
      return readUInt8.apply(this, args);
    };
    const original = function (this: Buffer, ...args: unknown[]) {
      seen.push(`original ${args.length}`);
      return readUInt8.apply(this, args);
    };
    proto.readUInt8 = patched;
    installRuntime({ ...recorder, originals: new Map([[patched, { original }]]) });
    try {
      const result = runBody(
        `const b = Buffer.from([1, 2]);
        const s = Buffer.from(new SharedArrayBuffer(2)).fill(3);
        const o = { readUInt8: Buffer.prototype.readUInt8, 0: 4, length: 1 };
        return [b.readUInt8(1), s.readUInt8(0), b.readUInt8(), b.readUInt8(...[1]), s.readUInt8(), o.readUInt8(0, 9), b.readUInt8(0)].join(' ');`,
        true,
      );
      assert.equal(result, "'2 3 1 2 3 4 1'");
      // on a shared Buffer sited; on any other receiver (a Buffer, or not a view) the original, with the arguments given
      assert.deepEqual(seen, [
        'original 1',
        'patched true 1',
        'original 0',
        'original 1',
        'patched true 0',
        'original 2',
        'original 1',
      ]);
    } finally {
      proto.readUInt8 = readUInt8;
      installRuntime(recorder);
    }
  });
  test('a rewritten Atomics call on memory that is not shared calls the original the runtime gave', () => {
    const add = Atomics.add;
    const seen: string[] = [];
    const patched = (...args: Parameters<typeof add>) => {
      seen.push(`patched ${hooks.pendingSite() >= 0} ${args.length}`);
      return add(...args);
    };
    const original = (ta: Int32Array, i: number, v: number) => {
      seen.push('original');
      return add(ta, i, v);
    };
    const body = `const v = new Int32Array(2);
      const s = new Int32Array(new SharedArrayBuffer(8));
      Atomics.add(v, 0, 1);
      Atomics.add(s, 0, 2);
      Atomics.add(v, 1, 3, 9, 9);
      Atomics.add(...[v, 0, 1]);
      Atomics.add(s, 1);
      Atomics.add(s, 0, 2);
      Atomics.add(v, 0, 1);
      return [...v, ...s];`;
    Atomics.add = patched as typeof add;
    installRuntime({ ...recorder, originals: new Map([[patched, { original, argument: 0 }]]) });
    try {
      assert.equal(runBody(body, true), '[ 3, 3, 4, 0 ]');
      // on shared memory the runtime's replacement, which reads its arguments as parameters (Runtime.originals), is
      // called sited with four; with more than 4 arguments or a spread, with the arguments as given
      assert.deepEqual(seen, [
        'original',
        'patched true 4',
        'patched true 5',
        'patched true 3',
        'patched true 4',
        'patched true 4',
        'original',
      ]);
      // a function the program put in place of the runtime's is called, sited, on any memory
      seen.length = 0;
      Atomics.add = ((...args: Parameters<typeof add>) => {
        seen.push(`user's ${hooks.pendingSite() >= 0} ${args.length}`);
        return add(...args);
      }) as typeof add;
      assert.equal(runBody(body, true), '[ 3, 3, 4, 0 ]');
      assert.deepEqual(
        seen,
        [3, 3, 5, 3, 2, 3, 3].map((n) => `user's true ${n}`),
      );
    } finally {
      Atomics.add = add;
      installRuntime(recorder);
    }
    assert.equal(hooks.pendingSite(), -1);
  });
  test('new TypedArray(x) wraps x at its site; the hook asks the runtime to check a copy of a shared view', () => {
    const code = (src: string) => instrument(src, { file: 'f.js', module: false });
    assert.match(
      code('new Float64Array(v, 1);').code,
      /new Float64Array\(__goldilocks\.copied\(__gl\$m, 0, v\), 1\)/,
    );
    assert.match(
      code('const F = Float64Array; new F(v); new a.C(v);').code,
      /new \(__gl\$1 = F\)\(__goldilocks\.copied\(__gl\$m, 0, v, __gl\$1\)\); new \(__gl\$2 = a\.C\)\(__goldilocks\.copied\(__gl\$m, 1, v, __gl\$2\)\)/,
    );
    assert.match(
      code('function f(Int8Array, v) { return new Int8Array(v); }').code,
      /new Int8Array\(__goldilocks\.copied\(__gl\$m, 0, v, Int8Array\)\)/,
    );
    for (const kept of [
      'new Float64Array();',
      'new Float64Array(...xs);',
      'new Foo(1, v);',
      'new Foo({ v }, v);',
      'new Foo(`v`);',
      'new Foo(-v);',
      'new Error(v);',
      'new Map(v);',
    ])
      assert.equal(code(kept).sites, 0, kept);
    const copies: string[] = [];
    installRuntime({
      ...recorder,
      readAll(o, site) {
        const l = hooks.siteLocation(site);
        copies.push(`${(o as Int8Array).length} ${l.line}:${l.column}`);
      },
    });
    try {
      runBody(
        'const s = new Int32Array(new SharedArrayBuffer(8));\nreturn [new Float64Array(s), new Uint8Array(s.buffer), new Int8Array([1]), new Int8Array(new Int32Array(2))];',
        true,
      );
      runBody(
        'const s = new Int32Array(new SharedArrayBuffer(8)); const F = Float64Array; class M extends Uint8Array {}\nclass Foo { constructor(x) { this.x = x; } }\nreturn [new F(s), new M(s), new Foo(s), new (class extends Int16Array {})(s)];',
        true,
      );
    } finally {
      installRuntime(recorder);
    }
    // the shared view only: not its buffer, an array or a non-shared view; and only for TypedArray constructors
    assert.deepEqual(copies, ['2 3:9', '2 4:9', '2 4:19', '2 4:41']);
  });
  test('object spread, rest and integer literal keys of object patterns pass their source to the elements hook', () => {
    const code = (src: string) => instrument(src, { file: 'f.js', module: false });
    assert.match(
      code('const { 0: a, length, 3: b, x } = v; ({ 1: c } = w); const { y, ...r } = v; o = { ...v, z: 1 };')
        .code,
      /= __goldilocks\.elements\(__gl\$m, 0, v, \[0, 3\]\);.*= __goldilocks\.elements\(__gl\$m, 1, w, \[1\]\)\);.*= __goldilocks\.elements\(__gl\$m, 2, v\);.*\{ \.\.\.__goldilocks\.elements\(__gl\$m, 3, v\), z: 1 \}/,
    );
    for (const kept of [
      'const { length, buffer } = v;',
      "const { '01': a, 1.5: b } = v;",
      'const { [k]: a } = v;',
      'const { 0: a } = { 0: 1 };',
      'o = { ...{ a: 1 } };',
      'for (const { 0: a } of vs);',
    ])
      assert.equal(code(kept).sites, 0, kept);
    const reads: string[] = [];
    installRuntime({
      ...recorder,
      readElements(o, site, keys) {
        const l = hooks.siteLocation(site);
        reads.push(`${(o as Int8Array).length} ${keys ?? 'all'} ${l.line}:${l.column}`);
      },
    });
    let result: string;
    try {
      result = runBody(
        'const s = new Int32Array(new SharedArrayBuffer(8)); s[1] = 5;\nconst { 1: a, 7: b } = s; const { ...r } = s; const o = { ...s };\nconst { 0: c } = new Int8Array(1);\nreturn [a, b, r, o, c];',
        true,
      );
    } finally {
      installRuntime(recorder);
    }
    assert.equal(result, "[ 5, undefined, { '0': 0, '1': 5 }, { '0': 0, '1': 5 }, 0 ]");
    assert.deepEqual(reads, ['2 1,7 3:7', '2 all 3:33', '2 all 3:59']); // key 7 is not an element: the runtime skips it
  });
  test('non-computed o.p, callees and super[k] are not sites', () => {
    assert.equal(
      instrument('o.p = o.q; o[k](); ({ m() { return super[k]; } });', { file: 'f.js', module: false }).sites,
      0,
    );
  });
  test('line numbers are preserved', () => {
    const src =
      'let a = [1];\nfunction f(b) {\n  return b[0] +\n    b[1];\n}\nthrow new Error(String(a[0]));\n';
    const out = instrument(src, { file: 'f.js', module: false }).code.split('\n');
    assert.match(out[5], /^throw new Error/);
    assert.match(out[3], /b, 1/);
  });
});

const exec = promisify(execFile);
type Preload = '--require' | '--import';
async function node(preload: Preload, args: string[], record: string) {
  const env = {
    ...process.env,
    GOLDILOCKS_RUNTIME: join(FIXTURES, 'recording-runtime.mjs'),
    GOLDILOCKS_RECORD: record,
  };
  try {
    const { stdout, stderr } = await exec(process.execPath, [preload, REGISTER, ...args], {
      env,
      cwd: FIXTURES,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

// `goldilocks run` preloads register.js with --require; `node --import goldilocks/register` is documented too.
for (const preload of ['--require', '--import'] as const)
  describe(`end to end: node ${preload} dist/node/register.js`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'goldilocks-instrument-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    /**
     * Runs fixture `file` under the preload, expecting exit 0: its stdout (trimmed), the accesses the recording
     * runtime logged (`R file:line:col`), and how many threads logged one.
     */
    const runOk = async (file: string) => {
      const log = join(dir, `${file}.log`);
      const r = await node(preload, [file], log);
      assert.equal(r.code, 0, r.stderr);
      const lines = readFileSync(log, 'utf8').trim().split('\n');
      return {
        stdout: r.stdout.trim(),
        recorded: lines.map((l) => l.replace(/^\d+ /, '')),
        threads: new Set(lines.map((l) => l.split(' ')[0])).size,
      };
    };

    test('ESM main, a file worker, an eval worker and a worker with execArgv: [] and env: {}', async () => {
      const r = await runOk('main.mjs');
      assert.equal(r.stdout, '1,0,42,43');
      assert.deepEqual(r.recorded, [
        'W main.mjs:4:1',
        'R worker.mjs:3:17',
        'W worker.mjs:3:1',
        'R [worker eval]:2:17',
        'W [worker eval]:2:1',
        'R worker.mjs:3:17',
        'W worker.mjs:3:1',
      ]);
      assert.equal(r.threads, 4);
    });

    test('CommonJS loops: loop guards in a module loaded by require (eslint-scope is not itself instrumented)', async () => {
      const r = await runOk('loop.cjs');
      assert.equal(r.stdout, '1,2 2,4');
      assert.deepEqual(r.recorded, [
        'W loop.cjs:2:29',
        'W loop.cjs:2:29',
        'R loop.cjs:4:36',
        'R loop.cjs:4:36',
      ]);
    });

    test('an import cycle: a function runs before its module, with its site cache undefined', async () => {
      const r = await runOk('cycle-a.mjs');
      assert.equal(r.stdout, '0,7,0,7 0 5');
      assert.deepEqual(r.recorded, [
        'W cycle-b.mjs:5:1',
        'R cycle-a.mjs:3:10',
        'R cycle-a.mjs:3:10',
        'R cycle-a.mjs:3:10',
      ]);
    });

    test('CommonJS main and worker', async () => {
      const r = await runOk('main.cjs');
      assert.equal(r.stdout, '2,7');
      assert.deepEqual(r.recorded, ['R main.cjs:3:1', 'W main.cjs:3:1', 'W worker.cjs:2:1']);
      assert.equal(r.threads, 2);
    });

    test('a TypeScript entry point is type-stripped with exact positions', async () => {
      const r = await runOk('app.ts');
      assert.equal(r.stdout, '1');
      assert.deepEqual(r.recorded, ['R app.ts:4:12', 'W app.ts:4:12']);
    });

    test('a syntax error is reported by node, with file and line', async () => {
      const r = await node(preload, ['syntax-error.mjs'], join(dir, 'err.log'));
      assert.equal(r.code, 1);
      assert.match(r.stderr, /syntax-error\.mjs:2\n/);
      assert.match(r.stderr, /SyntaxError: Unexpected token ';'/);
      assert.doesNotMatch(r.stderr, /at .*dist\/runtime/);
    });

    test('process.dlopen with two arguments reaches Node unchanged (flags defaulted)', async () => {
      const r = await node(preload, ['dlopen.mjs'], join(dir, 'dlopen.log'));
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /cannot open shared object file/);
      assert.match(r.stderr, /native addon \/nonexistent\/addon\.node/);
    });

    test("the program's own loader hooks, instrumented in the loader thread, run", async () => {
      const r = await node(
        preload,
        ['--import', './register-hooks.mjs', 'exit-code.mjs'],
        join(dir, 'hooks.log'),
      );
      assert.equal(r.code, 3, r.stderr);
      assert.doesNotMatch(r.stderr, /__goldilocks is not defined/);
    });

    test('a worker given execArgv sees exactly it in process.execArgv', async () => {
      const r = await node(preload, ['exec-argv.mjs'], join(dir, 'argv.log'));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), '["--no-warnings"]');
    });
  });

test('run() passes --require in NODE_OPTIONS and returns the exit code', async () => {
  assert.equal(await run([join(FIXTURES, 'exit-code.mjs')], { stdio: 'ignore' }), 3);
});
