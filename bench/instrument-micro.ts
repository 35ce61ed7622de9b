/**
 * Microbenchmark of the emitted access shape: the same loop plain and instrumented (through
 * src/instrument/instrument.ts, passthrough runtime), over a plain Array, a non-shared Float64Array, an Int32Array
 * over a SharedArrayBuffer, and an object used as a map `o[key]`. Each loop does a read-modify-write and a read per
 * element. Prints ns per element (best of several rounds) and the instrumented/plain ratio, and the floor of any
 * guard that tests the object per access: the same loop with only `isView(a)` added before each access (a no-op
 * conditional; the accesses unchanged). Then the same per-element work on an object reached through a member: a method's
 * loop over `this.buf` (the member loop guards), nested loops whose inner loop runs 4 times (the guard on the outer
 * loop), a method whose only loop runs 4 times called from a loop (a short loop: the per-access guard), and
 * `get(i)`/`set(i, v)` methods over `this.buf` called from a loop (no loop around their accesses: the per-access
 * guard; and `c.set(...)` is a call of a name the rewriter gives a site: `__goldilocks.call` of the method itself, the
 * receiver not being a view), and the same with `put` for `set` (the per-access guard alone). Then the live runtime's
 * element path (`bench/runtime-micro.mjs` under plain node and under `--import dist/node/register.js`; needs
 * `npm run build`): ns per read of a shared Float64Array covered by the same-epoch filter, per word check, per
 * `Atomics.add`, per word of a bulk copy into shared memory, per call of a method name the rewriter gives a site, and
 * per element of DataView reads and writes of memory that is not shared, and per call of replaced view methods, of
 * `Atomics.add`, of `TextDecoder#decode` and of `TextEncoder#encodeInto` (methods the runtime observes on receivers that
 * are not views) on memory that is not shared. Each part runs in `--runs` processes of its own (default 5: the loops in this file with
 * `--child`, then runtime-micro.mjs plain, then live, in turn), and each row gives the median of the runs' times, their
 * range, and the ratio of the medians: on a noisy host, and where V8 compiles a loop well in some processes and not
 * in others, one process is not a measurement.
 * Usage: npm run bench:instrument [-- --runs N]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compileFunction } from 'node:vm';
import { installHooks } from '../src/hooks/install.js';
import { instrument } from '../src/instrument/instrument.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, child: { type: 'boolean', default: false } },
});
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

/** The loops of this file, in this process: per row, [plain, instrumented, isView-only] ns per element. */
function loops(): { subjects: Record<string, number[]>; members: Record<string, number[]> } {
  const rows = { subjects: {} as Record<string, number[]>, members: {} as Record<string, number[]> };
  for (const [name, { make, key }] of Object.entries(subjects)) {
    const source = LOOP.replace('KEY', key);
    const plain = compileFunction(source)();
    const inst = compileFunction(instrument(source, { file: 'bench.js', module: false }).code)();
    const floor = compileFunction(ISVIEW_ONLY.replace('KEY', key))();
    const p = time(plain, make());
    const q = time(inst, make());
    const f = time(floor, make());
    rows.subjects[name] = [p, q, f];
  }
  for (const [shape, source] of Object.entries(MEMBER))
    for (const [name, make] of [
      ['Array', subjects.Array.make],
      ['Float64Array', subjects['Float64Array (not shared)'].make],
    ] as const) {
      const plain = compileFunction(source)();
      const inst = compileFunction(instrument(source, { file: 'bench.js', module: false }).code)();
      rows.members[`${shape}, ${name}`] = [time(plain, make()), time(inst, make())];
    }
  return rows;
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

const micro = fileURLToPath(new URL('runtime-micro.mjs', import.meta.url));
const register = fileURLToPath(new URL('../dist/node/register.js', import.meta.url));
const parse = (out: string): Record<string, number> =>
  Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => [l.split(' ')[0], Number(l.split(' ')[1])]),
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
  encodeInto: 'TextEncoder#encodeInto 16 bytes, not shared',
};

/** The median of `times` (the lower middle one for an even count) and their range. */
function summary(times: number[]): { median: number; min: number; max: number } {
  const sorted = [...times].sort((x, y) => x - y);
  return { median: sorted[(sorted.length - 1) >> 1], min: sorted[0], max: sorted.at(-1) as number };
}

/** Prints a section: per row (label → one [plain, instrumented, ...] tuple per run), medians, ranges, ratios. */
function section(title: string, columns: string[], rows: Record<string, number[][]>): void {
  const width = Math.max(...Object.keys(rows).map((label) => label.length));
  console.log(`\n${title}`);
  console.log(
    `${''.padEnd(width)}${columns.map((c, j) => `  ${c.padStart(24)}${j > 0 ? '  ratio' : ''}`).join('')}`,
  );
  for (const [label, runs] of Object.entries(rows)) {
    const columnStats = columns.map((_, j) => summary(runs.map((run) => run[j])));
    const cells = columnStats.map(({ median, min, max }, j) => {
      const ratio = j > 0 ? `  ${(median / columnStats[0].median).toFixed(2)}x` : '';
      return `  ${`${median.toFixed(2)} (${min.toFixed(2)}–${max.toFixed(2)})`.padStart(24)}${ratio}`;
    });
    console.log(`${label.padEnd(width)}${cells.join('')}`);
  }
}

if (values.child) console.log(JSON.stringify(loops()));
else {
  const self = fileURLToPath(import.meta.url);
  const rowsOf = (labels: string[]) => Object.fromEntries(labels.map((label) => [label, [] as number[][]]));
  const subjectRows = rowsOf(Object.keys(subjects));
  const memberRows: Record<string, number[][]> = {};
  const liveRows = rowsOf(Object.values(LABELS));
  for (let r = 0; r < runs; r++) {
    const child = JSON.parse(
      execFileSync(process.execPath, [...process.execArgv, self, '--child'], { encoding: 'utf8' }),
    ) as ReturnType<typeof loops>;
    for (const [label, times] of Object.entries(child.subjects)) subjectRows[label].push(times);
    for (const [label, times] of Object.entries(child.members))
      memberRows[label] = [...(memberRows[label] ?? []), times];
    const plain = parse(execFileSync(process.execPath, [micro], { encoding: 'utf8' }));
    const live = parse(execFileSync(process.execPath, ['--import', register, micro], { encoding: 'utf8' }));
    for (const [k, label] of Object.entries(LABELS)) liveRows[label].push([plain[k], live[k]]);
  }
  console.log(`median (range) of ${runs} runs, ns per element or call; ratio: of the medians, to plain`);
  section('subject', ['plain', 'instrumented', 'isView-only'], subjectRows);
  section('through a member', ['plain', 'instrumented'], memberRows);
  section('live runtime (one thread)', ['plain', 'goldilocks'], liveRows);
}
