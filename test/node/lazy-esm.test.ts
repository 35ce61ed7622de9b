/**
 * Workers whose entry is CommonJS or an ES module start without the ES module loader hooks (`src/node/lazy-esm.ts`,
 * `src/node/esm-source.ts`, issue 24 §2), and still every module they run is instrumented: a race written in the
 * CommonJS entry, in an ES module it loads by `import()`, in a `.js` entry that is an ES module by Node's module-syntax
 * detection, in an ES module entry, in what it imports (statically, by `import()`, a `.js` of no `type`, a `data:`
 * module) is reported; the worker loads no loader hooks unless it needs them; and the program runs as under plain node
 * (`workerData`, `env`, `execArgv`, `resourceLimits`, the worker's error and exit code, `fs.promises.readFile` of a
 * module's URL, `Error.prepareStackTrace`). The programs are written to a temporary directory whose package.json has
 * no `type`. Which workers start so: entries Node 20 runs with its default loaders, and none under an option that
 * changes how modules are loaded.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { WorkerOptions } from 'node:worker_threads';
import { importsForHooks } from '../../src/node/esm-source.js';
import {
  mainStartsWithoutHooks,
  startsWithoutHooks as startsWithoutHooksWith,
} from '../../src/node/lazy-esm.js';
import type { JsonReport } from '../../src/report/json.js';
import { cliAsync, tempPath } from '../helpers/helpers.js';

const LIMIT = { timeout: 120_000 };
const DIR = tempPath('lazy-esm');
/** The raw Atomics of the runtime (no synchronization), or the built-ins under plain node. */
const RAW = `globalThis[Symbol.for('goldilocks.rawAtomics')] ?? Atomics`;

/**
 * The main program: starts the worker file named by its argument with a shared `data` element, waits (raw, not a
 * synchronization) until the worker has written it, then reads it: a race whenever the worker's write is checked.
 */
const MAIN = `const { Worker } = require('node:worker_threads');
const raw = ${RAW};
const sched = new Int32Array(new SharedArrayBuffer(4));
const data = new Int32Array(new SharedArrayBuffer(4));
const w = new Worker(require('node:path').join(__dirname, process.argv[2]), { workerData: { data, sched } });
raw.wait(sched, 0, 0);
console.log('read', data[0]);
w.on('exit', (code) => console.log('exit', code));
`;
/** The worker's racy write, then the raw signal to the main thread. */
const WRITE = `workerData.data[0] = 7;
  const raw = ${RAW};
  raw.store(workerData.sched, 0, 1);
  raw.notify(workerData.sched, 0);`;

const FILES: Record<string, string> = {
  'package.json': '{}\n',
  'main.cjs': MAIN,
  'write.mjs': `import { workerData } from 'node:worker_threads';\nexport function write() {\n  ${WRITE}\n}\n`,
  'entry.cjs': `const { workerData } = require('node:worker_threads');\n{\n  ${WRITE}\n}\n`,
  'dynamic-import.cjs': `const { pathToFileURL } = require('node:url');
const url = pathToFileURL(require('node:path').join(__dirname, 'write.mjs')).href;
import(url).then((m) => m.write());
`,
  'detected.js': `import { write } from './write.mjs';\nwrite();\n`,
  // registers hooks of its own (they note whether the source they get of write.mjs is instrumented), then runs a
  // file that loads write.mjs: they must get it instrumented, as when the runtime's hooks were registered at start
  'own-hooks.cjs': `const { register } = require('node:module');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
register(pathToFileURL(join(__dirname, 'own-hooks.mjs')).href, { data: join(__dirname, 'seen.txt') });
require('./dynamic-import.cjs');
`,
  'own-hooks.mjs': `import { writeFileSync } from 'node:fs';
let seen;
export function initialize(file) {
  seen = file;
}
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (url.endsWith('/write.mjs')) writeFileSync(seen, String(result.source).includes('__goldilocks') ? 'instrumented' : 'plain');
  return result;
}
`,
  'options.cjs': `const { Worker } = require('node:worker_threads');
const run = (file, options) =>
  new Promise((resolve) => {
    const w = new Worker(require('node:path').join(__dirname, file), options);
    w.on('message', (m) => console.log('message', JSON.stringify(m)));
    w.on('error', (e) => console.log('error', e.constructor.name, e.message));
    w.on('exit', (code) => resolve(console.log('exit', code)));
  });
(async () => {
  await run('report.cjs', {
    workerData: { n: 1, list: [2, 3] },
    env: { ONLY: 'this' },
    execArgv: ['--no-warnings'],
    resourceLimits: { maxOldGenerationSizeMb: 64 },
  });
  await run('throws.cjs', {});
  await run('exits.cjs', {});
  process.exitCode = 3;
})();
`,
  'report.cjs': `const { parentPort, workerData, resourceLimits } = require('node:worker_threads');
parentPort.postMessage({ workerData, env: process.env, execArgv: process.execArgv, old: resourceLimits.maxOldGenerationSizeMb });
`,
  'throws.cjs': `throw new RangeError('from the worker');\n`,
  'entry.mjs': `import { write } from './write.mjs';\nwrite();\n`,
  'dynamic-import.mjs': `import('./write.mjs').then((m) => m.write());\n`,
  'stack-hooks.mjs': `Error.prepareStackTrace = () => 'no frames';
Error.stackTraceLimit = 0;
import('./write.mjs').then((m) => m.write());
`,
  // a test's mock of fs.promises.readFile that calls the one it replaced (node:test's mock.method does)
  'mock-read.mjs': `import { promises } from 'node:fs';
const readFile = promises.readFile;
promises.readFile = function mocked(...args) {
  return readFile.apply(this, args);
};
import('./write.mjs').then((m) => m.write());
`,
  'write-ts.mts': `import { workerData } from 'node:worker_threads';\nexport function write(): void {\n  ${WRITE}\n}\n`,
  'imports-ts.mjs': `import { write } from './write-ts.mts';\nwrite();\n`,
  'typeless.js': `import { workerData } from 'node:worker_threads';\nexport function write() {\n  ${WRITE}\n}\n`,
  'imports-typeless.mjs': `import { write } from './typeless.js';\nwrite();\n`,
  'data-import.mjs': `const source = \`import { workerData } from 'node:worker_threads';\nexport function write() {\n  ${WRITE}\n}\n\`;
import('data:text/javascript,' + encodeURIComponent(source)).then((m) => m.write());
`,
  'own-hooks-entry.mjs': `import { register } from 'node:module';
register(new URL('./own-hooks.mjs', import.meta.url).href, { data: new URL('./seen.txt', import.meta.url).pathname });
const { write } = await import('./write.mjs');
write();
`,
  // what a worker sees of its loading: the loader-hooks module (loaded by node:module register), its own source read
  // back, a stack under a program's Error.prepareStackTrace, import.meta and a module loaded after that
  'hooks.cjs': `const { Worker } = require('node:worker_threads');
const run = (file) =>
  new Promise((resolve) => {
    const w = new Worker(require('node:path').join(__dirname, file));
    w.on('message', (m) => console.log(file, JSON.stringify(m)));
    w.on('error', (e) => console.log('error', e.message));
    w.on('exit', resolve);
  });
(async () => {
  for (const file of ['sees.mjs', 'sees.cjs', 'sees-data.mjs']) await run(file);
})();
`,
  'sees.mjs': `import { parentPort } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
const own = await readFile(new URL(import.meta.url));
Error.prepareStackTrace = (e, frames) => \`frames \${frames.length}\`;
const { x } = await import('./seen.mjs');
const stack = new Error('e').stack;
Error.prepareStackTrace = undefined;
parentPort.postMessage({
  hooks: process.moduleLoadList.some((m) => m.endsWith('esm/hooks')),
  ownSource: own.equals(readFileSync(new URL(import.meta.url))),
  stack, x, url: import.meta.url.endsWith('/sees.mjs'), resolved: import.meta.resolve('./seen.mjs').endsWith('/seen.mjs'),
});
`,
  'seen.mjs': 'export const x = 42;\n',
  'sees.cjs': `require('node:worker_threads').parentPort.postMessage({ hooks: process.moduleLoadList.some((m) => m.endsWith('esm/hooks')) });\n`,
  'sees-data.mjs': `import { parentPort } from 'node:worker_threads';
const { x } = await import('data:text/javascript,export const x = 1;');
parentPort.postMessage({ hooks: process.moduleLoadList.some((m) => m.endsWith('esm/hooks')), x });
`,
  'exits.cjs': `process.exit(5);\n`,
  // the main thread's own start: an ES module main whose read of the worker's write (no synchronization) is the race
  'main.mjs': `import { Worker } from 'node:worker_threads';
const raw = ${RAW};
const sched = new Int32Array(new SharedArrayBuffer(4));
const data = new Int32Array(new SharedArrayBuffer(4));
const w = new Worker(new URL('./entry.cjs', import.meta.url), { workerData: { data, sched } });
raw.wait(sched, 0, 0);
console.log('read', data[0]);
console.log('hooks', process.moduleLoadList.some((m) => m.endsWith('esm/hooks')));
w.on('exit', (code) => console.log('exit', code));
`,
};

mkdirSync(DIR, { recursive: true });
for (const [name, text] of Object.entries(FILES)) writeFileSync(join(DIR, name), text);

/** `goldilocks run --on-race=report` of `args` in {@link DIR}: its exit code, stdout and JSON report. */
async function run(args: string[]) {
  const report = tempPath('report.json');
  const r = await cliAsync([
    'run',
    '--on-race',
    'report',
    '--report',
    report,
    ...args.map((a, i) => (i === 0 ? join(DIR, a) : a)),
  ]);
  return { ...r, report: JSON.parse(readFileSync(report, 'utf8')) as JsonReport };
}

/** Plain `node` of `args` in {@link DIR}: its exit code and stdout. */
function node(args: string[]) {
  const r = spawnSync(process.execPath, [join(DIR, args[0]), ...args.slice(1)], {
    encoding: 'utf8',
    timeout: LIMIT.timeout,
  });
  return { code: r.status, stdout: r.stdout };
}

/**
 * A test that `goldilocks run main.cjs <worker>` reports the race written in `file` (a path ending or a URL prefix,
 * said as `where`), and that the program prints what it prints under node.
 */
function reportsRace(worker: string, where: string, file: string, plainTwin = worker): void {
  test(
    `a race written in ${where} is reported, and the program prints what it prints under node`,
    LIMIT,
    async () => {
      const r = await run(['main.cjs', worker]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.report.summary.racyVariables, 1, r.stderr);
      const location = r.report.races[0].previous.location;
      assert.ok(location.includes(file), location);
      assert.equal(r.stdout, node(['main.cjs', plainTwin]).stdout);
    },
  );
}

describe('a worker with a CommonJS entry (started without the ES module hooks)', () => {
  for (const [worker, where, file] of [
    ['entry.cjs', 'its CommonJS entry', '/entry.cjs:'],
    ['dynamic-import.cjs', 'an ES module it loads with import()', '/write.mjs:'],
    ['detected.js', 'a .js entry that is an ES module (module-syntax detection)', '/write.mjs:'],
  ])
    reportsRace(worker, where, file);

  test(
    'hooks the program registers itself (node:module register) get instrumented source, as when registered at start',
    LIMIT,
    async () => {
      const r = await run(['main.cjs', 'own-hooks.cjs']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.report.summary.racyVariables, 1, r.stderr);
      assert.equal(readFileSync(join(DIR, 'seen.txt'), 'utf8'), 'instrumented');
      assert.equal(r.stdout, node(['main.cjs', 'own-hooks.cjs']).stdout);
      assert.equal(readFileSync(join(DIR, 'seen.txt'), 'utf8'), 'plain'); // under node: the hooks ran
    },
  );

  test(
    'workerData, env, execArgv, resourceLimits, a worker error and exit code: as under node',
    LIMIT,
    async () => {
      const plain = node(['options.cjs']);
      assert.equal(plain.code, 3);
      assert.match(plain.stdout, /error RangeError from the worker\nexit 1\nexit 5\n$/);
      const r = await run(['options.cjs']);
      assert.equal(r.stdout, plain.stdout, r.stderr);
      assert.equal(r.code, 3);
      assert.equal(r.report.summary.racyVariables, 0);
    },
  );
});

describe('a worker with an ES module entry (started without the ES module hooks)', () => {
  for (const [worker, where, file] of [
    ['entry.mjs', 'a module its ES module entry imports', 'write.mjs'],
    ['dynamic-import.mjs', 'a module it loads with import()', 'write.mjs'],
    [
      'stack-hooks.mjs',
      'a module it loads under its own Error.prepareStackTrace and stackTraceLimit',
      'write.mjs',
    ],
    ['mock-read.mjs', 'a module it loads while fs.promises.readFile is mocked', 'write.mjs'],
    [
      'imports-typeless.mjs',
      'a .js module of no package type it imports (module-syntax detection)',
      'typeless.js',
    ],
    ['data-import.mjs', 'a data: module it imports', 'data:text/javascript,'],
    ['own-hooks-entry.mjs', 'a module it loads after registering hooks of its own', 'write.mjs'],
  ])
    reportsRace(worker, where, file);
  // plain Node 20 cannot load the .mts (ERR_UNKNOWN_FILE_EXTENSION; the worker fails and main.cjs waits forever): the
  // output is compared with plain node's of the same program in JavaScript (entry.mjs imports write.mjs)
  reportsRace(
    'imports-ts.mjs',
    'a TypeScript module it imports (which Node 20 does not strip)',
    'write-ts.mts',
    'entry.mjs',
  );

  test(
    'hooks the program registers itself in an ES module worker get instrumented source',
    LIMIT,
    async () => {
      await run(['main.cjs', 'own-hooks-entry.mjs']);
      assert.equal(readFileSync(join(DIR, 'seen.txt'), 'utf8'), 'instrumented');
    },
  );

  test(
    'no loader hooks are loaded unless needed (a data: module); the program sees its modules as under node',
    LIMIT,
    async () => {
      const lines = (out: string) =>
        out
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, l.indexOf(' ')), JSON.parse(l.slice(l.indexOf(' ') + 1))]);
      const plain = lines(node(['hooks.cjs']).stdout);
      const r = await run(['hooks.cjs']);
      assert.equal(r.code, 0, r.stderr);
      const under = lines(r.stdout);
      assert.deepEqual(
        under.map(([f, m]) => [f, m.hooks]),
        [
          ['sees.mjs', false],
          ['sees.cjs', false],
          ['sees-data.mjs', true],
        ],
      );
      assert.deepEqual(
        plain.map(([f, m]) => [f, m.hooks]),
        under.map(([f]) => [f, false]),
      );
      const rest = (ls: typeof plain) => ls.map(([f, { hooks, ...m }]) => [f, m]);
      assert.deepEqual(rest(under), rest(plain));
      assert.deepEqual(under[0][1], { ...plain[0][1], hooks: false });
      assert.equal(plain[0][1].ownSource, true);
      assert.equal(plain[0][1].x, 42);
      assert.match(plain[0][1].stack, /^frames \d+$/);
    },
  );
});

describe('a main thread whose entry is a file (started without the ES module hooks)', () => {
  test(
    'a race read in its ES module entry is reported; no loader hooks are loaded; it prints what it prints under node',
    LIMIT,
    async () => {
      const r = await run(['main.mjs']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.report.summary.racyVariables, 1, r.stderr);
      assert.ok(
        r.report.races[0].current.location.includes('/main.mjs:'),
        r.report.races[0].current.location,
      );
      assert.match(r.stdout, /^hooks false$/m);
      assert.equal(r.stdout, node(['main.mjs']).stdout);
    },
  );

  test('which: a file entry as for a worker; not -e, -p, -i, stdin or the REPL', () => {
    const plain = { options: [], mainTypeScript: false, inThreadLoad: true };
    const main = (argv: string[], execArgv: string[] = []) =>
      mainStartsWithoutHooks(['node', ...argv], execArgv, plain);
    assert.equal(main([join(DIR, 'main.mjs')]), true);
    assert.equal(main([join(DIR, 'main.cjs'), 'entry.cjs'], ['--expose-gc']), true);
    assert.equal(main([join(DIR, 'main.mjs')], ['--test']), true); // the test runner: each file in a process of its own
    assert.equal(main([join(DIR, 'worker.ts')]), false);
    assert.equal(main([join(DIR, 'missing.cjs')]), false);
    assert.equal(main([join(DIR, 'main.mjs')], ['--loader', 'x']), false);
    assert.equal(main([]), false); // the REPL
    assert.equal(main(['-']), false); // stdin
    for (const execArgv of [
      ['-e', 'code'],
      ['--eval=code'],
      ['-p', 'code'],
      ['--print', 'code'],
      ['-pe', 'c'],
      ['-i'],
    ])
      assert.equal(main([join(DIR, 'main.cjs')], execArgv), false, execArgv.join(' '));
  });
});

describe('which workers start without the ES module hooks (startsWithoutHooks)', () => {
  const file = (name: string, text = '') => {
    const p = join(DIR, name);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  // the options of this test process (node --import tsx) left out: only the worker's own
  const plain = { options: [], mainTypeScript: false, inThreadLoad: true };
  const startsWithoutHooks = (f: string | URL, o: WorkerOptions | undefined) =>
    startsWithoutHooksWith(f, o, plain);
  file('esm/package.json', '{"type":"module"}');
  const depScope = file('esm/node_modules/dep/index.js'); // no package.json: its scope stops at node_modules
  file('bad/package.json', '{ not json');

  test('by the entry: .cjs, .mjs and .js files (not TypeScript, not a package.json Node cannot read)', () => {
    assert.equal(startsWithoutHooks(join(DIR, 'entry.cjs'), undefined), true);
    assert.equal(startsWithoutHooks(new URL(`file://${join(DIR, 'detected.js')}`), {}), true);
    assert.equal(startsWithoutHooks(join(DIR, 'write.mjs'), undefined), true);
    assert.equal(startsWithoutHooks(file('esm/worker.js'), undefined), true);
    assert.equal(startsWithoutHooks(file('esm/worker.cjs'), undefined), true);
    assert.equal(startsWithoutHooks(depScope, undefined), true);
    assert.equal(startsWithoutHooks(file('bad/worker.js'), undefined), false); // Node throws on its package.json
    assert.equal(startsWithoutHooks(join(DIR, 'missing.cjs'), undefined), false);
    assert.equal(startsWithoutHooks(file('worker.ts'), undefined), false);
  });

  test('eval code, with import() or without', () => {
    assert.equal(startsWithoutHooks('require("node:fs")', { eval: true }), true);
    assert.equal(startsWithoutHooks('import("node:fs")', { eval: true }), true);
  });

  test('never under an option that changes how modules are loaded', () => {
    for (const execArgv of [
      ['--loader', 'x'],
      ['--experimental-loader=x'],
      ['--experimental-default-type=module'],
      ['--input-type=module'],
      ['--experimental-policy=p.json'],
      ['--experimental-permission'],
      ['--experimental-network-imports'],
    ])
      assert.equal(startsWithoutHooks(join(DIR, 'entry.mjs'), { execArgv }), false, execArgv.join(' '));
    for (const execArgv of [['--no-warnings'], ['--import', 'tsx'], ['--import=tsx']])
      assert.equal(startsWithoutHooks(join(DIR, 'entry.mjs'), { execArgv }), true, execArgv.join(' '));
    const nodeOptions = { options: ['--require x --loader tsx'], mainTypeScript: false, inThreadLoad: true };
    assert.equal(startsWithoutHooksWith(join(DIR, 'entry.mjs'), {}, nodeOptions), false);
  });

  test('never in a process whose TypeScript main module the runtime runs (its workers may import .ts)', () => {
    const ts = (options: string[]) =>
      startsWithoutHooksWith(
        join(DIR, 'entry.mjs'),
        {},
        { options, mainTypeScript: true, inThreadLoad: true },
      );
    assert.equal(ts([]), false);
    assert.equal(ts(['--require x']), false);
    assert.equal(ts(['--import=tsx']), true); // tsx runs it, as under node
  });

  test('never on a Node whose ES module loader esm-source.ts was not written for (IN_THREAD_LOAD false)', () => {
    const other = { options: [], mainTypeScript: false, inThreadLoad: false };
    for (const entry of ['entry.cjs', 'entry.mjs'])
      assert.equal(startsWithoutHooksWith(join(DIR, entry), undefined, other), false, entry);
    assert.equal(startsWithoutHooksWith('require("node:fs")', { eval: true }, other), false);
  });
});

test('importsForHooks: a literal data: or TypeScript specifier of import(), import or from; not one used otherwise', () => {
  for (const s of [
    "import('./x.mts')",
    'import { a } from "../lib/a.ts";',
    'export * from `./b.cts`',
    "import('data:text/javascript,x')",
    'await import ( `data:text/javascript,` + s)',
    "import 'data:text/javascript,x';",
    'export { x } from "data:text/javascript,export const x = 1";',
  ])
    assert.equal(importsForHooks(s), true, s);
  for (const s of [
    'd.responseURL=`data:text/javascript,` + encodeURIComponent(c)',
    'return"data:application/json;charset=utf-8;base64,"+btoa(m)',
    "Buffer.from('data:x')",
    '//# sourceMappingURL=data:application/json;base64,e30=',
    "import('./x.mjs'); const f = 'a.ts'",
    "import { ts } from './parts.js'",
  ])
    assert.equal(importsForHooks(s), false, s);
});
