/**
 * The live runtime end to end: `goldilocks run` on the shipped examples (the paper's Figure 1, Example 2,
 * Example 4) and on fixtures for the synchronization it must see (Atomics publication, wait/notify), the patched
 * methods' results, workers terminated inside a check (no thread may hang), the racy access that must not happen,
 * `--on-race` modes, the JSON report, and command mode.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonReport } from '../../src/report/json.js';
import {
  assertDecisionShares,
  type CliRun,
  cliAsync,
  ROOT,
  runReport,
  tempFile,
  tempPath,
} from '../helpers/helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'runtime');
const LIMIT = { timeout: 60_000 };

interface Run extends CliRun {
  report?: JsonReport;
}

/**
 * `goldilocks run [options] <args>` with a JSON report; resolves when it exits, or once `limitMs` have passed
 * (then the CLI and the program are killed).
 */
async function goldilocks(
  options: string[],
  args: string[],
  limitMs?: number,
  env: Record<string, string> = {},
): Promise<Run> {
  const file = tempPath('report.json');
  const r = await cliAsync(['run', '--report', file, ...options, ...args], limitMs, env);
  let report: JsonReport | undefined;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
  } catch {
    report = undefined;
  }
  return { ...r, report };
}

const line = (location: string) => Number(location.split(':').at(-2));

/** What `file` prints on standard output under plain node (which must exit 0). */
const plainNode = (file: string) => execFileSync(process.execPath, [file], { encoding: 'utf8' });

/**
 * `goldilocks run file` with `env` added to the environment, which must exit 0 and print `plain` (plain node's output of
 * the same program) on standard output. @returns the run, with its JSON report.
 */
async function runsAsPlain(file: string, plain: string, env: Record<string, string> = {}): Promise<Run> {
  const r = await goldilocks([], [file], undefined, env);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, plain, JSON.stringify(env));
  return r;
}

describe('paper examples, live', () => {
  test('Figure 1: the connection thread catches DataRaceException and closes gracefully', LIMIT, async () => {
    const r = await goldilocks([], ['examples/ftp-connection.mjs']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /Connection closed! \(data race on sab#\d+\+\d+ \(Int32Array\); served 3 commands\)/,
    );
    assert.match(r.stderr, /WARNING: goldilocks: data race on sab#/);
    assert.equal(r.report?.summary.racePairs, 1);
    const race = r.report!.races[0];
    assert.equal(race.current.thread, 'T1'); // the connection worker (the main thread starts no loader-hooks thread)
    assert.equal(race.previous.thread, 'T0'); // close() on the main thread
    assert.equal(race.previous.access, 'write');
  });

  test('Example 2: ownership moves through locks, no exception', LIMIT, async () => {
    const r = await goldilocks([], ['examples/ownership.mjs']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /box 1 data = 3 \(expected 3\); no DataRaceException/);
    assert.equal(r.report?.summary.racyEvents, 0);
    assert.ok((r.report?.stats.shortCircuitAlock ?? 0) + (r.report?.stats.lockset ?? 0) > 0);
  });

  test('Example 4: DataRaceException on checking.bal', LIMIT, async () => {
    const r = await goldilocks([], ['examples/bank.mjs']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /stopped by DataRaceException: data race on sab#\d+\+8 \(Float64Array\)/);
    const race = r.report!.races[0];
    assert.match(race.variable, /^sab#\d+\+8$/);
    const lines = [line(race.current.location), line(race.previous.location)].sort((a, b) => a - b);
    assert.deepEqual(lines, [29, 35]); // checking.bal += 42 (transfer), checking.bal -= 42 (withdraw)
  });
});

describe('synchronization the runtime sees', () => {
  test('Atomics.store -> Atomics.load publication: no race', LIMIT, async () => {
    const r = await goldilocks([], [join(FIXTURES, 'publish.mjs'), 'atomic']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'read 42');
    assert.equal(r.report?.summary.racyEvents, 0);
  });

  test('plain flag publication: races on the flag and on the data', LIMIT, async () => {
    const r = await goldilocks(['--on-race=report'], [join(FIXTURES, 'publish.mjs'), 'plain']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'read 42');
    const lines = r.report!.races.map((x) => [line(x.current.location), line(x.previous.location)].sort());
    assert.deepEqual(lines, [
      [13, 22],
      [15, 18],
    ]);
  });

  test('a worker given its own env is instrumented too (its messages arrive unwrapped)', LIMIT, async () => {
    const r = await goldilocks([], [join(FIXTURES, 'env-worker.mjs')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), '{"m":{"hello":1},"env":{"A":"1"},"execArgv":[]}');
  });

  test('Atomics.wait / notify hand-off: no race', LIMIT, async () => {
    const r = await goldilocks([], [join(FIXTURES, 'wait-notify.mjs')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'read 5');
    assert.equal(r.report?.summary.racyEvents, 0);
  });
});

describe('statistics (run --stats)', () => {
  test(
    'the shares of the check decisions sum to 100%; a hand-off through Atomics is decided by direct ownership transfer',
    LIMIT,
    async () => {
      const r = await goldilocks(['--stats'], [join(FIXTURES, 'publish.mjs'), 'atomic']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.report?.summary.racyEvents, 0);
      assertDecisionShares(r.stderr);
      // the worker's write, its Atomics.store, the main thread's Atomics.load: two threads' cells, a few cells apart
      assert.ok((r.report?.stats.directTransfer ?? 0) >= 1, r.stderr);
      assert.match(r.stderr, /^ {2}directTransferCells +\d+$/m);
    },
  );

  test(
    'the decisions sum to the checks when a word is short-circuited only in part (Example 2)',
    LIMIT,
    async () => {
      const r = await goldilocks([], ['examples/ownership.mjs']);
      assert.equal(r.code, 0, r.stderr);
      const st = r.report!.stats;
      const decided =
        st.shortCircuitXact +
        st.shortCircuitOwner +
        st.shortCircuitAlock +
        st.hbMemo +
        st.directTransfer +
        st.lockset;
      assert.equal(decided, st.checks);
    },
  );
});

describe('patched methods on shared views', () => {
  test(
    'iteration and search methods return what the originals return on a non-shared copy',
    LIMIT,
    async () => {
      const r = await goldilocks([], [join(FIXTURES, 'search-methods.mjs')]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'patched, all equal');
    },
  );
});

describe('the hooks object', () => {
  test('is defined once per thread, with its runtime', LIMIT, () => {
    const out = execFileSync(
      process.execPath,
      [
        '--require',
        join(FIXTURES, 'count-hooks-defines.cjs'),
        '--import',
        join(ROOT, 'dist', 'node', 'register.js'),
        join(FIXTURES, 'publish.mjs'),
        'atomic',
      ],
      { encoding: 'utf8' },
    );
    assert.equal(out, 'read 42\n__goldilocks defined 1 time(s)\n');
  });
});

describe('DataView methods over memory that is not shared', () => {
  test('return, throw and look as the originals do', LIMIT, async () => {
    const file = join(FIXTURES, 'dataview-plain.mjs');
    const plain = plainNode(file);
    await runsAsPlain(file, plain);
    assert.match(plain, /TypeError: Method DataView\.prototype\.getFloat64 called on incompatible receiver/);
  });
});

describe('DataView methods over shared memory', () => {
  test(
    'a get or set of bytes this thread checked in its epoch is not checked again (the same-epoch filter)',
    LIMIT,
    async () => {
      // each of two workers, in each of 3 epochs: a get and a set of a Float64 (2 checks), its get again (covered by
      // the set); a get and a set of an Int32 (2 checks), its get and a getUint16 of its low bytes (covered by the set):
      // 3 filtered accesses an epoch, 18 in all; the main thread's accesses, alone, are neither checked nor counted
      const { report } = await runReport([join(ROOT, 'test', 'programs', 'dataview-reread.mjs')]);
      assert.equal(report.summary.racyEvents, 0);
      assert.equal(report.stats.sameEpoch, 18, JSON.stringify(report.stats));
    },
  );
});

describe('the Atomics functions', () => {
  test(
    'have the names, lengths and attributes of the built-ins, and return and throw what they do, with missing and extra arguments, in the main thread alone, checked, and in a worker',
    LIMIT,
    async () => {
      const file = join(FIXTURES, 'atomics-plain.mjs');
      const plain = plainNode(file);
      assert.match(plain, /^add: name add, length 3, true false true$/m);
      assert.match(plain, /^worker:\nload: name load, length 2/m);
      for (const env of [{}, { GOLDILOCKS_ALONE: '0' }]) {
        const r = await runsAsPlain(file, plain, env);
        assert.equal(r.report?.summary.racyEvents, 0);
        assert.ok((r.report?.stats.atomics ?? 0) >= 10, JSON.stringify(r.report?.stats));
      }
    },
  );
});

describe('the built-ins the runtime replaces', () => {
  test(
    "look as they do without it: each one's name, length and text (Function.prototype.toString), native where it was",
    LIMIT,
    async () => {
      const file = join(FIXTURES, 'builtins-look.mjs');
      const plain = plainNode(file);
      assert.match(plain, /^Atomics\.add: add 3 true \d+ function add\(\) \{ \[native code\] \}$/m);
      assert.match(plain, /^structuredClone: structuredClone 0 true /m);
      assert.match(plain, /^Function\.prototype\.toString: toString 0 true /m);
      await runsAsPlain(file, plain);
    },
  );
});

describe('a shared WebAssembly.Memory that grows', () => {
  test(
    'beyond what its accesses are tracked for (a maximum above 256 MiB): a warning, and the program runs on',
    LIMIT,
    async () => {
      // 4,097 pages of 64 KiB: one more than 256 MiB; the memory is only reserved, and grown by one page
      const program = tempFile(
        'grow-untracked.mjs',
        `const memory = new WebAssembly.Memory({ initial: 1, maximum: 4097, shared: true });
new Int32Array(memory.buffer)[1] = 1;
memory.grow(1);
const words = new Int32Array(memory.buffer);
words[20000] = 2;
console.log(words.length, words[1], words[20000]);
`,
      );
      const r = await goldilocks([], [program]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), '32768 1 2');
      assert.match(
        r.stderr,
        /goldilocks: warning: a shared WebAssembly\.Memory grew beyond the length its accesses are tracked for/,
      );
      assert.equal(r.report?.summary.racyEvents, 0);
    },
  );
  test(
    'a descriptor with a getter: read once, as without the runtime, and its maximum still tracked',
    LIMIT,
    async () => {
      const program = tempFile(
        'grow-getter.mjs',
        `let reads = 0;
const memory = new WebAssembly.Memory({ initial: 1, shared: true, get maximum() { reads++; return 2; } });
new Int32Array(memory.buffer)[1] = 1;
memory.grow(1);
const words = new Int32Array(memory.buffer);
words[20000] = 2;
console.log(reads, words.length, words[1], words[20000]);
`,
      );
      const plain = plainNode(program);
      assert.equal(plain.trim(), '1 32768 1 2');
      const r = await runsAsPlain(program, plain);
      // tracked for its maximum: the grown buffer keeps the memory's id (no warning)
      assert.doesNotMatch(r.stderr, /grew beyond/);
      assert.equal(r.report?.summary.racyEvents, 0);
    },
  );
});

describe('generic built-ins on shared views', () => {
  test(
    'Array.prototype methods, Object.values/assign, spread, destructuring, JSON.stringify, util.inspect, constructors and Buffer search print what they print without the runtime, and are checked',
    LIMIT,
    async () => {
      const file = join(FIXTURES, 'generic-builtins.mjs');
      const plain = plainNode(file);
      assert.ok(plain.split('\n').length > 100, plain);
      // the main thread alone checks nothing by default (docs/RUNTIME.md "The main thread alone"): checked here
      const r = await runsAsPlain(file, plain, { GOLDILOCKS_ALONE: '0' });
      assert.equal(r.report?.summary.racyEvents, 0);
      // one thread, so no check is more than an owner short circuit: but every case reached the shadow state
      assert.ok((r.report?.stats.accesses ?? 0) > 400, JSON.stringify(r.report?.stats));
      const alone = await runsAsPlain(file, plain);
      assert.equal(alone.report?.stats.accesses, 0, JSON.stringify(alone.report?.stats));
    },
  );
});

describe('a worker terminated inside a check', () => {
  test('hangs no one: the main thread and a new worker access its word within the bound', {
    timeout: 120_000,
  }, async () => {
    // 16 rounds of two worker starts (0.3 s to 1 s each under the runtime) and at most one 1 s takeover: below 90 s
    const r = await goldilocks(['--on-race=report'], [join(FIXTURES, 'terminate-mid-check.mjs')], 90_000);
    assert.equal(r.killed, false, `still running after 90 s (a thread hangs); stdout: ${r.stdout}`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^rounds \(ms\):( \d+){16}\ndone$/m);
  });
});

describe('a worker stopped with its parent inside a check', () => {
  test('hangs no one: the main thread and a new worker access its word after the parent exits', {
    timeout: 120_000,
  }, async () => {
    // 8 rounds of three worker starts (0.3 s to 1 s each under the runtime) and at most two 1 s takeovers: below 60 s
    const r = await goldilocks(['--on-race=report'], [join(FIXTURES, 'nested-stop-mid-check.mjs')], 60_000);
    assert.equal(r.killed, false, `still running after 60 s (a thread hangs); stdout: ${r.stdout}`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^rounds \(ms\):( \d+){8}\ndone$/m);
  });
});

describe('on a race', () => {
  test('throw: the racing write does not happen', LIMIT, async () => {
    const r = await goldilocks([], [join(FIXTURES, 'prevented.mjs')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /worker: DataRaceException sab#\d+\+0 write/);
    assert.match(r.stdout, /a\[0\] = 1/);
  });

  test('report: the write happens and the run goes on', LIMIT, async () => {
    const r = await goldilocks(['--on-race=report'], [join(FIXTURES, 'prevented.mjs')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /a\[0\] = 7/);
    assert.equal(r.report?.summary.racePairs, 1);
  });

  test(
    'report: a race repeated is listed once per pair of locations and counted each time',
    LIMIT,
    async () => {
      const n = 200;
      const r = await goldilocks(['--on-race=report'], [join(FIXTURES, 'repeated-race.mjs'), String(n)]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`sum ${2 * n}`));
      const j = r.report!;
      assert.deepEqual(
        j.races.map((x) => [line(x.current.location), line(x.previous.location), x.count]),
        [
          [15, 24, n],
          [18, 24, n],
        ],
      );
      assert.equal(j.summary.racyEvents, 2 * n);
      assert.equal(r.stderr.match(/WARNING: goldilocks: data race/g)?.length, 2);
    },
  );

  test('abort: exit code 66 and the report is written', LIMIT, async () => {
    const r = await goldilocks(['--on-race=abort'], [join(FIXTURES, 'prevented.mjs')]);
    assert.equal(r.code, 66, r.stderr);
    assert.equal(r.report?.summary.racePairs, 1);
  });

  test('command mode: -- node <file>', LIMIT, async () => {
    const r = await goldilocks(['--on-race=report'], ['--', 'node', join(FIXTURES, 'prevented.mjs')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.report?.summary.racePairs, 1);
  });
});

describe('online peers (--detector)', () => {
  test('an unknown detector is a usage error (exit 2) naming the choices', LIMIT, async () => {
    const r = await goldilocks(['--detector', 'djit'], [join(FIXTURES, 'prevented.mjs')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /goldilocks, fasttrack, eraser/);
  });

  for (const detector of ['fasttrack', 'eraser']) {
    test(`${detector}: throw stops the racing write; the report names the detector`, LIMIT, async () => {
      const r = await goldilocks(['--detector', detector], [join(FIXTURES, 'prevented.mjs')]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /worker: DataRaceException sab#\d+\+0 write/);
      assert.match(r.stdout, /a\[0\] = 1/);
      assert.equal(r.report?.detector, detector);
      assert.equal(r.report?.precise, detector === 'fasttrack');
      assert.match(
        r.stderr,
        detector === 'eraser' ? /potential data race/ : /FastTrack: previous access at epoch/,
      );
    });
  }

  test(
    'fasttrack: a token passed by messages through 12 workers orders their writes (clocks widen past 8)',
    LIMIT,
    async () => {
      const ok = await goldilocks(['--detector', 'fasttrack'], [join(FIXTURES, 'token-ring.mjs')]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(ok.stdout.trim(), 'counter 12');
      assert.equal(ok.report?.summary.racyVariables, 0, ok.stderr);
      const racy = await goldilocks(
        ['--detector', 'fasttrack', '--on-race=report'],
        [join(FIXTURES, 'token-ring.mjs'), 'racy'],
      );
      assert.deepEqual(racy.report?.racyVariables.length, 1, racy.stderr);
      assert.deepEqual(
        racy.report!.races.map((x) => [line(x.current.location), line(x.previous.location)]),
        [[22, 22]],
      );
    },
  );

  test('eraser: the message hand-off is a false alarm (Eraser sees no message edges)', LIMIT, async () => {
    const r = await goldilocks(
      ['--detector', 'eraser', '--on-race=report'],
      [join(FIXTURES, 'token-ring.mjs')],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.report?.precise, false);
    assert.deepEqual(
      r.report!.races.map((x) => [line(x.current.location), line(x.previous.location)]),
      [[24, 24]],
    );
  });
});
