/**
 * Long-running differential fuzzing (`npm run fuzz -- [--runs N | --seconds S] [--seed X] [--path P]`): the
 * property of test/detectors/differential.test.ts (every precise detector configuration agrees with the eager oracle)
 * on larger random feasible traces (more threads, variables, locks and events: 60% up to 8 threads and 150
 * commands, 30% the test's default size, 10% 10-40 threads and up to 400 commands), in chunks of 1,000 traces
 * with seeds seed, seed+1, ... Prints progress every 10,000 traces. On a disagreement (or a rejected trace)
 * prints the shrunk counterexample, the configurations that disagree, and how to replay it; exits 1.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { agreementProperty, disagreements, feasibleTrace, type GeneratedTrace } from '../helpers/gen.js';

const CHUNK = 1_000;
const PROGRESS = 10_000;

const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    seconds: { type: 'string' },
    seed: { type: 'string' },
    path: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log(`usage: npm run fuzz -- [--runs N (default 1000000)] [--seconds S] [--seed X] [--path P]
  --seconds S     stop after S seconds (then --runs is unlimited unless given)
  --seed X        base seed (chunk k uses X+k); with --path, replays a reported counterexample`);
  process.exit(0);
}

function num(name: string, s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s.replace(/_/g, ''));
  if (!Number.isFinite(n) || n < 0) {
    console.error(`fuzz: --${name} expects a non-negative number, got '${s}'`);
    process.exit(2);
  }
  return n;
}

const seconds = num('seconds', values.seconds);
const runs = num('runs', values.runs) ?? (seconds !== undefined ? Number.POSITIVE_INFINITY : 1_000_000);
const baseSeed = num('seed', values.seed) ?? Math.floor(Math.random() * 0x7fffffff);

/** 8 variables: fields of 3 objects, array elements, a plain variable. */
const universe = {
  variables: ['o1.f', 'o2.f', 'o1.g', 'o2.g', 'o3.f', 'a[0]', 'a[1]', 'x'],
  objects: ['o1', 'o2', 'o3', 'a', 'x'],
  maxVars: 8,
};
/** Larger traces: up to 8 threads. */
const large = feasibleTrace({
  ...universe,
  minThreads: 2,
  maxThreads: 8,
  maxLocks: 4,
  maxVolatiles: 3,
  maxCommands: 150,
});
/** Many threads and locks (tables widen past their initial sizes), long traces. */
const wide = feasibleTrace({
  ...universe,
  minThreads: 10,
  maxThreads: 40,
  maxLocks: 12,
  maxVolatiles: 3,
  maxCommands: 400,
});
const arb = fc.oneof(
  { arbitrary: large, weight: 6 },
  { arbitrary: feasibleTrace(), weight: 3 },
  { arbitrary: wide, weight: 1 },
);

let events = 0;
const property = agreementProperty(arb, (t: GeneratedTrace) => {
  events += t.events;
});

function report(seed: number, before: number, r: fc.RunDetails<[GeneratedTrace]>): never {
  console.error(
    `\nFAILED at trace ${before + r.numRuns} (chunk seed ${seed}, run ${r.numRuns}, path ${r.counterexamplePath}).`,
  );
  if (r.counterexample !== null) {
    const text = r.counterexample[0].text;
    let why: string;
    try {
      why = disagreements(text).join('\n  ');
    } catch (e) {
      why = (e as Error).message.split('\n--- trace ---')[0];
    }
    console.error(`Shrunk counterexample (${r.counterexample[0].events} events, ${r.numShrinks} shrinks):`);
    console.error(`  ${why}`);
    console.error(`--- trace ---\n${text}--- end ---`);
  } else console.error(String(r.errorInstance ?? 'unknown error'));
  console.error(`Replay: npm run fuzz -- --seed ${seed} --path '${r.counterexamplePath}'`);
  process.exit(1);
}

const t0 = performance.now();
const elapsed = () => (performance.now() - t0) / 1000;

if (values.path !== undefined) {
  const r = fc.check(property, { seed: baseSeed, path: values.path, numRuns: CHUNK });
  if (r.failed) report(baseSeed, 0, r);
  console.log(`replay of seed ${baseSeed} path ${values.path}: no disagreement`);
  process.exit(0);
}

console.log(
  `fuzz: seed ${baseSeed}, ${Number.isFinite(runs) ? `${runs} traces` : 'unlimited traces'}${
    seconds !== undefined ? `, at most ${seconds} s` : ''
  }`,
);
let done = 0;
let nextProgress = PROGRESS;
for (let chunk = 0; done < runs && (seconds === undefined || elapsed() < seconds); chunk++) {
  const seed = (baseSeed + chunk) | 0;
  const n = Math.min(CHUNK, runs - done);
  const r = fc.check(property, { seed, numRuns: n });
  if (r.failed) report(seed, done, r);
  done += n;
  if (done >= nextProgress) {
    nextProgress += PROGRESS;
    const s = elapsed();
    console.log(
      `${done} traces, ${events} events, ${s.toFixed(0)} s, ${(done / s).toFixed(0)} traces/s (seed ${baseSeed})`,
    );
  }
}
console.log(
  `done: ${done} traces, ${events} events, ${elapsed().toFixed(0)} s, no disagreement (seed ${baseSeed})`,
);
