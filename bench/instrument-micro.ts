/**
 * Microbenchmark of the emitted access shape: the same loop plain and instrumented (through
 * src/runtime/instrument.ts, passthrough runtime), over a plain Array, a non-shared Float64Array, an Int32Array
 * over a SharedArrayBuffer, and an object used as a map `o[key]`. Each loop does a read-modify-write and a read per
 * element. Prints ns per element (best of several rounds) and the instrumented/plain ratio, and the floor of any
 * guard that tests the object per access: the same loop with only `isView(a)` added before each access (a no-op
 * conditional; the accesses unchanged). Then the same per-element work on an object reached through a member: a method's
 * loop over `this.buf` (the member loop guards), nested loops whose inner loop runs 4 times (the guard on the outer
 * loop), a method whose only loop runs 4 times called from a loop (a short loop: the per-access guard), and
 * `get(i)`/`set(i, v)` methods over `this.buf` called from a loop (no loop around their accesses: the per-access
 * guard; and `c.set(...)` is a call of a name the rewriter gives a site: `__goldilocks.call` of the method itself, the
 * receiver not being a view), and the same with `put` for `set` (the per-access guard alone). Then the live runtime's
 * element path (`bench/runtime-micro.mjs` under plain node and under `--import dist/runtime/register.js`; needs
 * `npm run build`): ns per read of a shared Float64Array covered by the same-epoch filter, per word check, per
 * `Atomics.add`, per word of a bulk copy into shared memory, per call of a method name the rewriter gives a site, and
 * per element of DataView reads and writes of memory that is not shared, and per call of replaced view methods, of
 * `Atomics.add` and of `TextDecoder#decode` (a method the runtime observes on receivers that are not views) on memory
 * that is not shared. That file runs in `--runs` pairs of processes (default 5), plain and live alternating, and each
 * row gives the median of the runs' times and their range: on a noisy host, and where V8 compiles a loop well in
 * some processes and not in others, one pair is not a measurement.
 * Usage: npm run bench:instrument [-- --runs N]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compileFunction } from 'node:vm';
import { installHooks } from '../src/runtime/hooks.js';
import { instrument } from '../src/runtime/instrument.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`bench:instrument: --runs expects a positive integer, not '${values.runs}'`);
  process.exit(2);
}
installHooks();
const N = 1 << 16;
const KEYS = Array.from({ length: 64 }, (_, i) => `k${i}`);
// Compiled like a CommonJS module body (the rewriter's per-module names are then local to it).
const LOOP = `return function (a, n, keys) {
  let s = 0;
  for (let i = 0; i < n; i++) {
    const k = KEY;
    a[k] = a[k] + 1;
    s += a[k];
  }
  return s;
};`;

const subjects: Record<string, { make: () => unknown; key: string }> = {
  Array: { make: () => Array.from({ length: N }, (_, i) => i), key: 'i' },
  'Float64Array (not shared)': { make: () => new Float64Array(N), key: 'i' },
  'Int32Array over SharedArrayBuffer': { make: () => new Int32Array(new SharedArrayBuffer(4 * N)), key: 'i' },
  'object map o[key]': { make: () => Object.fromEntries(KEYS.map((k) => [k, 0])), key: 'keys[i & 63]' },
};

function time(f: (a: unknown, n: number, keys: string[]) => number, a: unknown): number {
  for (let w = 0; w < 20; w++) f(a, N, KEYS);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < 20; r++) f(a, N, KEYS);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / (20 * N));
  }
  return best;
}

/** The loop with each access `X` preceded by the isView test alone: `(isView(a) ? X : X)`. */
const ISVIEW_ONLY = `return function (a, n, keys) {
  let s = 0;
  const isView = __goldilocks.isView;
  for (let i = 0; i < n; i++) {
    const k = KEY;
    const v = (isView(a) ? a[k] : a[k]) + 1;
    if (isView(a)) a[k] = v;
    else a[k] = v;
    s += isView(a) ? a[k] : a[k];
  }
  return s;
};`;

console.log('subject                              plain ns  instr ns  ratio  isView-only ns  ratio');
for (const [name, { make, key }] of Object.entries(subjects)) {
  const source = LOOP.replace('KEY', key);
  const plain = compileFunction(source)();
  const inst = compileFunction(instrument(source, { file: 'bench.js', module: false }).code)();
  const floor = compileFunction(ISVIEW_ONLY.replace('KEY', key))();
  const p = time(plain, make());
  const q = time(inst, make());
  const f = time(floor, make());
  console.log(
    `${name.padEnd(36)} ${p.toFixed(2).padStart(8)}  ${q.toFixed(2).padStart(8)}  ${(q / p).toFixed(2)}x  ${f.toFixed(2).padStart(14)}  ${(f / p).toFixed(2)}x`,
  );
}

/** Member-reached objects: `make(a)` returns the timed function of (a, n). */
const MEMBER: Record<string, string> = {
  'loop over this.buf in a method': `class C { constructor(b) { this.buf = b; }
    f(n) { let s = 0; for (let i = 0; i < n; i++) { this.buf[i] = this.buf[i] + 1; s += this.buf[i]; } return s; } }
    return (a, n) => new C(a).f(n);`,
  'nested loops over this.buf, inner of 4': `class C { constructor(b) { this.buf = b; }
    f(n) { let s = 0; for (let i = 0; i < n; i += 4) { for (let j = 0; j < 4; j++) { this.buf[i + j] = this.buf[i + j] + 1; s += this.buf[i + j]; } } return s; } }
    return (a, n) => new C(a).f(n);`,
  'a loop of 4 in a method called in a loop': `class C { constructor(b) { this.buf = b; }
    g(i) { let s = 0; for (let j = 0; j < 4; j++) { this.buf[i + j] = this.buf[i + j] + 1; s += this.buf[i + j]; } return s; } }
    return (a, n) => { const c = new C(a); let s = 0; for (let i = 0; i < n; i += 4) s += c.g(i); return s; };`,
  'get(i)/set(i, v) methods on this.buf': `class C { constructor(b) { this.buf = b; }
    get(i) { return this.buf[i]; } set(i, v) { this.buf[i] = v; } }
    return (a, n) => { const c = new C(a); let s = 0; for (let i = 0; i < n; i++) { c.set(i, c.get(i) + 1); s += c.get(i); } return s; };`,
  'get(i)/put(i, v) methods on this.buf': `class C { constructor(b) { this.buf = b; }
    get(i) { return this.buf[i]; } put(i, v) { this.buf[i] = v; } }
    return (a, n) => { const c = new C(a); let s = 0; for (let i = 0; i < n; i++) { c.put(i, c.get(i) + 1); s += c.get(i); } return s; };`,
};
console.log('\nthrough a member                                       plain ns  instr ns  ratio');
for (const [shape, source] of Object.entries(MEMBER))
  for (const [name, make] of [
    ['Array', subjects.Array.make],
    ['Float64Array', subjects['Float64Array (not shared)'].make],
  ] as const) {
    const plain = compileFunction(source)();
    const inst = compileFunction(instrument(source, { file: 'bench.js', module: false }).code)();
    const p = time(plain, make());
    const q = time(inst, make());
    console.log(
      `${`${shape}, ${name}`.padEnd(54)} ${p.toFixed(2).padStart(8)}  ${q.toFixed(2).padStart(8)}  ${(q / p).toFixed(2)}x`,
    );
  }

const micro = fileURLToPath(new URL('runtime-micro.mjs', import.meta.url));
const register = fileURLToPath(new URL('../dist/runtime/register.js', import.meta.url));
const parse = (out: string) =>
  Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => l.split(' ')),
  );
const plainRuns: Record<string, string>[] = [];
const liveRuns: Record<string, string>[] = [];
for (let r = 0; r < runs; r++) {
  plainRuns.push(parse(execFileSync(process.execPath, [micro], { encoding: 'utf8' })));
  liveRuns.push(parse(execFileSync(process.execPath, ['--import', register, micro], { encoding: 'utf8' })));
}
/** The median of a row's times over the runs (the lower middle one for an even count), and their range. */
const summary = (all: Record<string, string>[], k: string) => {
  const times = all.map((run) => Number(run[k])).sort((x, y) => x - y);
  return { median: times[(times.length - 1) >> 1], min: times[0], max: times.at(-1) as number };
};
const cell = ({ median, min, max }: ReturnType<typeof summary>) =>
  `${median.toFixed(2)} (${min.toFixed(2)}–${max.toFixed(2)})`;
console.log(`\nlive runtime (one thread): median (range) of ${runs} runs of each`);
console.log(
  `${'row'.padEnd(40)} ${'plain ns'.padStart(25)}  ${'goldilocks ns'.padStart(25)}  ratio of medians`,
);
const LABELS: Record<string, string> = {
  filtered: 'same epoch (filtered)',
  checked: 'new epoch (word check)',
  atomic: 'Atomics.add (static site)',
  bulk: 'Buffer#copy 1 KiB, per 8-byte word',
  method: 'Map#set (a name given a site)',
  dataview: 'DataView get/set/get, not shared',
  read: 'Buffer#readUInt32LE, not shared',
  fill: 'TypedArray#fill 16 bytes, not shared',
  set: 'TypedArray#set 16 bytes, not shared',
  atomicPlain: 'Atomics.add, not shared',
  decode: 'TextDecoder#decode 16 bytes, not shared',
};
for (const [k, label] of Object.entries(LABELS)) {
  const plain = summary(plainRuns, k);
  const live = summary(liveRuns, k);
  console.log(
    `${label.padEnd(40)} ${cell(plain).padStart(25)}  ${cell(live).padStart(25)}  ${(live.median / plain.median).toFixed(2)}x`,
  );
}
