/**
 * Random feasible traces in the extended format, and the differential property every precise detector
 * must satisfy: the same verdicts (racy variables and the first racy event of each) as the eager oracle;
 * Goldilocks in every configuration but stopAfterFirstRace must moreover flag exactly eager's racy accesses.
 *
 * A trace is generated as a list of small "commands" (thread, operation, operand indices) interpreted by a
 * simulator of the engine's feasibility rules, which skips or adjusts the commands that would be infeasible:
 * a command of a thread that is not running is given to a live one (or, sometimes, starts that thread
 * unforked, as threads do in RAPID's traces); acq of a lock another thread holds is skipped; rel, wait and
 * notify pick among the locks the thread holds; fork picks a thread that has not started; join picks a live
 * thread other than T0 that holds no lock. Any sub-list of commands is therefore
 * still feasible, so fast-check's shrinking of the list (and of each command) keeps the trace feasible.
 * Used by test/detectors/differential.test.ts and test/detectors/fuzz.ts.
 */
import fc from 'fast-check';
import { type CheckResult, verdicts } from '../../src/check.js';
import { checkText } from '../../src/check-text.js';
import type { Race, RaceSink } from '../../src/detectors/detector.js';
import type { GoldilocksOptions } from '../../src/detectors/goldilocks/goldilocks.js';
import { createDetector } from '../../src/detectors/index.js';
import { Engine } from '../../src/engine/engine.js';
import type { EventBatch } from '../../src/model/events.js';
import { Symbols } from '../../src/model/symbols.js';
import { readTraceBuffer } from '../../src/trace/reader.js';
import { formatEvent } from '../../src/trace/writer.js';

export interface GeneratedTrace {
  text: string;
  /** Number of events (lines) of the trace. */
  events: number;
}

export interface GenOptions {
  /** Threads T0..T(n-1), n drawn from [minThreads, maxThreads] (default 2..5). */
  minThreads?: number;
  maxThreads?: number;
  /** Variables: a prefix of `variables`, of length drawn from [1, maxVars] (default 4). */
  maxVars?: number;
  /** Variable names (default o1.f, o2.f, o1.g, o2.g). */
  variables?: string[];
  /** Objects alloc() may name (default o1, o2). */
  objects?: string[];
  /** Locks l1..ln, n from [1, maxLocks] (default 3). */
  maxLocks?: number;
  /** Volatiles v1..vn, n from [1, maxVolatiles] (default 2). */
  maxVolatiles?: number;
  /** Commands (each 0-3 events) (default 40). */
  maxCommands?: number;
  /** Whether a thread may start without being forked, as in RAPID's traces (default true). */
  unforked?: boolean;
}

const DEFAULT_VARIABLES = ['o1.f', 'o2.f', 'o1.g', 'o2.g'];
const DEFAULT_OBJECTS = ['o1', 'o2'];
const LOCS = ['', '', '', 'L1', 'L2', 'L3', 'L12', 'A.java:10', 'B.run:7 (loop)', 'L1'];

type Op =
  | 'access'
  | 'locked'
  | 'guarded'
  | 'acq'
  | 'rel'
  | 'fork'
  | 'join'
  | 'volatile'
  | 'atomic'
  | 'commit'
  | 'alloc'
  | 'wait'
  | 'notify'
  | 'marker';

interface Command {
  /** Thread index (mod the thread count). */
  t: number;
  op: Op;
  /** Operands, taken modulo whatever they index. */
  a: number;
  b: number;
  c: number;
  loc: number;
  /** A not-yet-started thread may start without a fork (only with `unforked`). */
  spont: boolean;
}

interface Config {
  threads: number;
  vars: number;
  locks: number;
  volatiles: number;
  /** In quarters: how many of the bare accesses are made guarded (0-3), for traces with fewer races. */
  protect: number;
  /** Whether threads may start unforked in this trace (with `GenOptions.unforked`). */
  unforked: boolean;
  cmds: Command[];
}

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.constant<Op>('access'), weight: 30 },
  { arbitrary: fc.constant<Op>('guarded'), weight: 20 },
  { arbitrary: fc.constant<Op>('locked'), weight: 8 },
  { arbitrary: fc.constant<Op>('acq'), weight: 8 },
  { arbitrary: fc.constant<Op>('rel'), weight: 8 },
  { arbitrary: fc.constant<Op>('fork'), weight: 8 },
  { arbitrary: fc.constant<Op>('join'), weight: 3 },
  { arbitrary: fc.constant<Op>('volatile'), weight: 6 },
  { arbitrary: fc.constant<Op>('atomic'), weight: 8 },
  { arbitrary: fc.constant<Op>('commit'), weight: 6 },
  { arbitrary: fc.constant<Op>('alloc'), weight: 2 },
  { arbitrary: fc.constant<Op>('wait'), weight: 2 },
  { arbitrary: fc.constant<Op>('notify'), weight: 1 },
  { arbitrary: fc.constant<Op>('marker'), weight: 1 },
);

const command: fc.Arbitrary<Command> = fc.record({
  t: fc.nat(63),
  op,
  a: fc.nat(255),
  b: fc.nat(255),
  c: fc.nat(255),
  loc: fc.nat(LOCS.length - 1),
  spont: fc.boolean(),
});

/** The simulator: thread status; holder and re-entrancy depth per lock; locks held per thread; the lines. */
class Sim {
  static readonly UNSTARTED = 0;
  static readonly FORKED = 1;
  static readonly RUNNING = 2;
  static readonly JOINED = 3;
  readonly status: number[];
  readonly holder: number[];
  readonly depth: number[];
  readonly held: number[][];
  readonly lines: string[] = [];

  constructor(
    readonly cfg: Config,
    readonly variables: string[],
    readonly objects: string[],
    readonly unforked: boolean,
  ) {
    this.status = new Array(cfg.threads).fill(Sim.UNSTARTED);
    this.status[0] = Sim.RUNNING;
    this.holder = new Array(cfg.locks).fill(-1);
    this.depth = new Array(cfg.locks).fill(0);
    this.held = Array.from({ length: cfg.threads }, () => []);
  }

  emit(t: number, what: string, loc: number): void {
    this.status[t] = Sim.RUNNING;
    this.lines.push(`T${t}|${what}|${LOCS[loc]}`);
  }

  /**
   * The thread that runs command c: its own if live (or, with `unforked`, not started yet), else a live one
   * (T0 is never joined). It becomes running at its first event (`emit`).
   */
  thread(c: Command): number {
    const u = c.t % this.cfg.threads;
    const st = this.status[u];
    if (st === Sim.RUNNING || st === Sim.FORKED || (st === Sim.UNSTARTED && this.unforked && c.spont))
      return u;
    const live: number[] = [];
    for (let i = 0; i < this.cfg.threads; i++)
      if (this.status[i] === Sim.RUNNING || this.status[i] === Sim.FORKED) live.push(i);
    return live[c.t % live.length];
  }

  acquire(t: number, l: number, loc: number): boolean {
    if (this.holder[l] !== -1 && this.holder[l] !== t) return false;
    if (this.holder[l] === t) this.depth[l]++;
    else {
      this.holder[l] = t;
      this.depth[l] = 1;
      this.held[t].push(l);
    }
    this.emit(t, `acq(l${l + 1})`, loc);
    return true;
  }

  release(t: number, l: number, loc: number): void {
    if (--this.depth[l] === 0) {
      this.holder[l] = -1;
      this.held[t].splice(this.held[t].indexOf(l), 1);
    }
    this.emit(t, `rel(l${l + 1})`, loc);
  }

  access(t: number, x: number, write: boolean, c: Command): void {
    const value = (c.c & 7) === 7 ? `=${c.c >> 3}` : '';
    this.emit(t, `${write ? 'w' : 'r'}(${this.variables[x]})${value}`, c.loc);
  }

  /** An access inside acq(l)..rel(l), or a bare access if another thread holds l. */
  lockedAccess(t: number, x: number, l: number, write: boolean, c: Command): void {
    const ok = this.acquire(t, l, c.loc);
    this.access(t, x, write, c);
    if (ok) this.release(t, l, c.loc);
  }

  run(c: Command): void {
    const { vars, locks, volatiles, threads } = this.cfg;
    const t = this.thread(c);
    const held = this.held[t];
    switch (c.op) {
      case 'access':
      case 'guarded': {
        const x = c.a % vars;
        // Guarded (also a `protect` share of the bare accesses): variable i is protected by lock i mod #locks.
        if (c.op === 'guarded' || c.c % 4 < this.cfg.protect)
          this.lockedAccess(t, x, x % locks, (c.b & 1) === 1, c);
        else this.access(t, x, (c.b & 1) === 1, c);
        break;
      }
      case 'locked':
        this.lockedAccess(t, c.a % vars, c.b % locks, (c.c & 1) === 1, c);
        break;
      case 'acq':
        this.acquire(t, c.b % locks, c.loc);
        break;
      case 'rel':
        if (held.length > 0) this.release(t, held[c.b % held.length], c.loc);
        break;
      case 'wait':
      case 'notify':
        if (held.length > 0) this.emit(t, `${c.op}(l${held[c.b % held.length] + 1})`, c.loc);
        break;
      case 'fork': {
        const cands: number[] = [];
        for (let u = 0; u < threads; u++) if (u !== t && this.status[u] === Sim.UNSTARTED) cands.push(u);
        if (cands.length === 0) break;
        const u = cands[c.b % cands.length];
        this.status[u] = Sim.FORKED;
        this.emit(t, `fork(T${u})`, c.loc);
        break;
      }
      case 'join': {
        const cands: number[] = [];
        for (let u = 1; u < threads; u++) {
          const st = this.status[u];
          if (u !== t && (st === Sim.RUNNING || st === Sim.FORKED) && this.held[u].length === 0)
            cands.push(u);
        }
        if (cands.length === 0) break;
        const u = cands[c.b % cands.length];
        this.status[u] = Sim.JOINED;
        this.emit(t, `join(T${u})`, c.loc);
        break;
      }
      case 'volatile':
        this.emit(t, `${['vr', 'vw', 'rmw', 'ar', 'aw', 'armw'][c.a % 6]}(v${(c.b % volatiles) + 1})`, c.loc);
        break;
      case 'atomic': {
        // an atomic operation on location vK of variable x: its data access (ard/awd), then, as `goldilocks run
        // --record` writes them, its synchronization — or the data access alone
        const x = this.variables[c.a % vars];
        const v = `v${(c.b % volatiles) + 1}`;
        const kind = c.c % 4;
        this.emit(t, `${kind === 0 || (kind === 3 && c.b & 1) ? 'ard' : 'awd'}(${x},${v})`, c.loc);
        if (kind < 3) this.emit(t, `${['ar', 'aw', 'armw'][kind]}(${v})`, c.loc);
        break;
      }
      case 'commit': {
        const mask = (1 << vars) - 1;
        let r = c.a & mask;
        const w = c.b & mask;
        if (r === 0 && w === 0) r = 1 << (c.c % vars);
        const names = (m: number) => this.variables.slice(0, vars).filter((_, i) => (m >> i) & 1);
        this.emit(t, `commit(${names(r).join(',')};${names(w).join(',')})`, c.loc);
        break;
      }
      case 'alloc':
        this.emit(t, `alloc(${this.objects[c.b % this.objects.length]})`, c.loc);
        break;
      case 'marker':
        this.emit(t, ['begin', 'end', 'enter(M.run)', 'exit(M.run)', 'dummy'][c.b % 5], c.loc);
        break;
    }
  }
}

/** Interprets a command list as a feasible trace. */
function interpret(cfg: Config, o: Required<GenOptions>): GeneratedTrace {
  const sim = new Sim(cfg, o.variables, o.objects, o.unforked);
  for (const c of cfg.cmds) sim.run(c);
  return { text: sim.lines.length === 0 ? '' : `${sim.lines.join('\n')}\n`, events: sim.lines.length };
}

function withDefaults(opts: GenOptions): Required<GenOptions> {
  const variables = opts.variables ?? DEFAULT_VARIABLES;
  return {
    minThreads: opts.minThreads ?? 2,
    maxThreads: opts.maxThreads ?? 5,
    maxVars: Math.min(opts.maxVars ?? 4, variables.length, 30),
    variables,
    objects: opts.objects ?? DEFAULT_OBJECTS,
    maxLocks: opts.maxLocks ?? 3,
    maxVolatiles: opts.maxVolatiles ?? 2,
    maxCommands: opts.maxCommands ?? 40,
    unforked: opts.unforked ?? true,
  };
}

/** Random feasible traces; shrinking (of the underlying commands) keeps them feasible. */
export function feasibleTrace(opts: GenOptions = {}): fc.Arbitrary<GeneratedTrace> {
  const o = withDefaults(opts);
  return fc
    .record({
      threads: fc.integer({ min: o.minThreads, max: o.maxThreads }),
      vars: fc.integer({ min: 1, max: o.maxVars }),
      locks: fc.integer({ min: 1, max: o.maxLocks }),
      volatiles: fc.integer({ min: 1, max: o.maxVolatiles }),
      protect: fc.nat(3),
      unforked: fc.boolean(),
      cmds: fc.array(command, { maxLength: o.maxCommands, size: 'max' }),
    })
    .map((cfg) => interpret(cfg, o));
}

// ---- the differential property ----

export interface Configuration {
  name: string;
  goldilocks: GoldilocksOptions;
}

const ALL_OFF: GoldilocksOptions = {
  xactShortCircuit: false,
  ownerShortCircuit: false,
  alockShortCircuit: false,
  directTransfer: false,
  gc: false,
  eagerBound: 0,
  walkCacheMinCells: 0,
  hbMemo: false,
};

/** Goldilocks configurations compared with the oracle (besides the default, run with eager/djit/fasttrack). */
export const GOLDILOCKS_CONFIGURATIONS: Configuration[] = [
  { name: 'xactShortCircuit:false', goldilocks: { xactShortCircuit: false } },
  { name: 'ownerShortCircuit:false', goldilocks: { ownerShortCircuit: false } },
  { name: 'alockShortCircuit:false', goldilocks: { alockShortCircuit: false } },
  { name: 'directTransfer:false', goldilocks: { directTransfer: false } },
  { name: 'gc:false', goldilocks: { gc: false } },
  { name: 'eagerBound:0', goldilocks: { eagerBound: 0 } },
  { name: 'eagerBound:2', goldilocks: { eagerBound: 2 } },
  { name: 'eagerBound:1', goldilocks: { eagerBound: 1 } },
  { name: 'gc:false,eagerBound:2', goldilocks: { gc: false, eagerBound: 2 } },
  { name: 'walkCacheMinCells:0', goldilocks: { walkCacheMinCells: 0 } },
  { name: 'hbMemo:false', goldilocks: { hbMemo: false } },
  { name: 'hbMemo:false,walkCacheMinCells:1', goldilocks: { hbMemo: false, walkCacheMinCells: 1 } },
  { name: 'walkCacheMinCells:1', goldilocks: { walkCacheMinCells: 1 } },
  { name: 'walkCacheMinCells:1,eagerBound:3', goldilocks: { walkCacheMinCells: 1, eagerBound: 3 } },
  { name: 'all off', goldilocks: ALL_OFF },
  { name: 'all off but eagerBound:2', goldilocks: { ...ALL_OFF, eagerBound: 2 } },
  { name: 'stopAfterFirstRace:true', goldilocks: { stopAfterFirstRace: true } },
];

function show(m: Map<string, number>): string {
  return `{${[...m.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([x, ev]) => `${x}@${ev}`)
    .join(', ')}}`;
}

/** Events per batch of the run of the Goldilocks configurations: small, so batch boundaries are exercised. */
export const VARIANT_BATCH_SIZE = 4;

/** Every race a detector declares, as `x@event` (the racy accesses), and the first race of each variable. */
class AllRaces implements RaceSink {
  readonly accesses = new Set<string>();
  readonly first = new Map<string, number>();
  constructor(private readonly symbols: Symbols) {}
  race(r: Race): void {
    const x = this.symbols.variables.name(r.variable);
    this.accesses.add(`${x}@${r.current.index}`);
    if (!this.first.has(x)) this.first.set(x, r.current.index);
  }
}

/**
 * Runs `detectors`, then Goldilocks in each configuration of `configs`, over the trace in one engine (one
 * parse; `checkText` would parse the trace and allocate a 32k-event batch per configuration: 4x slower).
 */
function runConfigurations(text: string, detectors: string[], configs: Configuration[]): AllRaces[] {
  const symbols = new Symbols();
  const file = '<generated>';
  const engine = new Engine(
    symbols,
    [],
    { file },
    (b: EventBatch, i: number) => formatEvent(symbols, b, i) ?? '',
  );
  const sinks: AllRaces[] = [];
  const add = (name: string, goldilocks?: GoldilocksOptions) => {
    const sink = new AllRaces(symbols);
    engine.detectors.push(createDetector(name, { symbols, locks: engine.locks, sink }, { goldilocks }));
    sinks.push(sink);
  };
  for (const d of detectors) add(d);
  for (const c of configs) add('goldilocks', c.goldilocks);
  readTraceBuffer(Buffer.from(text, 'utf8'), file, symbols, (b) => engine.process(b), {
    batchSize: VARIANT_BATCH_SIZE,
  });
  return sinks;
}

function showAccesses(s: Set<string>): string {
  const key = (a: string) => Number(a.slice(a.lastIndexOf('@') + 1));
  return `[${[...s].sort((a, b) => key(a) - key(b) || (a < b ? -1 : a > b ? 1 : 0)).join(', ')}]`;
}

/**
 * Runs the oracle (eager) and every precise configuration on the trace, and compares their verdicts (racy
 * variables, first racy event of each) with the oracle's: eager, goldilocks, djit and fasttrack through
 * `checkText`; then, in one engine with tiny batches, eager, goldilocks with its defaults and in each of
 * {@link GOLDILOCKS_CONFIGURATIONS}. Goldilocks computes the same locksets as eager, so every configuration
 * but stopAfterFirstRace must also declare a race at exactly the same accesses as eager (all of them, not
 * just the first per variable); DJIT+ and FastTrack may legitimately differ there after a first race.
 * @returns a description of each configuration that differs from the oracle (empty: all agree).
 * @throws Error (with the trace) if the trace is rejected.
 */
export function disagreements(text: string): string[] {
  const base = ['eager', 'goldilocks', 'djit', 'fasttrack'];
  let r: CheckResult;
  let runs: AllRaces[];
  try {
    r = checkText(text, { detectors: base });
    runs = runConfigurations(text, ['eager', 'goldilocks'], GOLDILOCKS_CONFIGURATIONS);
  } catch (e) {
    throw new Error(`trace rejected: ${(e as Error).message}\n--- trace ---\n${text}`);
  }
  const oracle = show(verdicts(r, 0));
  const out: string[] = [];
  for (let i = 1; i < base.length; i++) {
    const v = show(verdicts(r, i));
    if (v !== oracle) out.push(`${base[i]}: ${v}`);
  }
  const batch = ` (batch size ${VARIANT_BATCH_SIZE})`;
  const names = [`eager${batch}`, `goldilocks default${batch}`];
  for (const c of GOLDILOCKS_CONFIGURATIONS) names.push(`goldilocks ${c.name}${batch}`);
  const all = showAccesses(runs[0].accesses);
  runs.forEach((run, i) => {
    const v = show(run.first);
    if (v !== oracle) out.push(`${names[i]}: ${v}`);
    else if (i > 0 && !GOLDILOCKS_CONFIGURATIONS[i - 2]?.goldilocks.stopAfterFirstRace) {
      const a = showAccesses(run.accesses);
      if (a !== all) out.push(`${names[i]}: racy accesses ${a}, eager's ${all}`);
    }
  });
  if (out.length > 0) out.unshift(`eager (oracle): ${oracle}`);
  return out;
}

/** The verdicts of eager (the oracle) on a trace, as `{x@event, ...}`. */
export function oracleVerdicts(text: string): Map<string, number> {
  return verdicts(checkText(text, { detectors: ['eager'] }), 0);
}

/** Throws an Error naming the disagreeing configurations and giving the trace text, if any disagree. */
export function assertAgreement(text: string): void {
  const d = disagreements(text);
  if (d.length > 0) throw new Error(`detectors disagree:\n  ${d.join('\n  ')}\n--- trace ---\n${text}`);
}

/** The differential property over traces from `arb`; `onRun` sees each trace checked (shrinks included). */
export function agreementProperty(
  arb: fc.Arbitrary<GeneratedTrace>,
  onRun?: (t: GeneratedTrace) => void,
): fc.IPropertyWithHooks<[GeneratedTrace]> {
  return fc.property(arb, (tr) => {
    onRun?.(tr);
    assertAgreement(tr.text);
  });
}
