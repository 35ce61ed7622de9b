/**
 * Properties of the adversarial-memory core on random feasible traces (test/helpers/gen.ts, shrinking on), with the
 * project's happens-before (the offline vector-clock engine, VectorClockDetector):
 * - the visible set of ./src/jumble/visible.ts (a backward scan with epoch tests, JUMBLE.md §4.6.3) equals the literal
 *   [READ] condition of Figure 6, `∀j > i. ¬(K_i ⊑ K_j ⊑ C_t)` with full vector-clock comparisons, over the whole
 *   history of writes (no garbage collection), both by the scan of a chain (`WriteBuffer.chain`) and by the general
 *   scan; a buffer that says it is a chain is one (K_i ⊑ K_j for every i < j, literally);
 * - garbage collection ([GC1] over the threads that may still act, [GC2] generalized) never removes a value a later
 *   read could see: with it, every read sees the same set of values as the literal rule;
 * - with a small bound, [REMOVE OLDEST] only loses values (a subset), and only when it counted a visible drop.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { DetectorContext } from '../../src/detectors/detector.js';
import { VectorClockDetector } from '../../src/detectors/vectorclock/base.js';
import { Engine } from '../../src/engine/engine.js';
import { WriteBuffer } from '../../src/jumble/buffer.js';
import { collect } from '../../src/jumble/gc.js';
import { LiveSet, ThreadSpans } from '../../src/jumble/offline/threads.js';
import { visible } from '../../src/jumble/visible.js';
import type { EventBatch } from '../../src/model/events.js';
import { Symbols } from '../../src/model/symbols.js';
import { readTraceBuffer } from '../../src/trace/reader.js';
import { feasibleTrace } from '../helpers/gen.js';

/** One write of the literal history: value key, writer's full clock, event index. */
interface Write {
  value: number;
  clock: Int32Array;
  seq: number;
}

const leq = (a: Int32Array, b: Int32Array, bOff: number, bw: number): boolean => {
  for (let u = 0; u < a.length; u++) if (a[u] > (u < bw ? b[bOff + u] : 0)) return false;
  return true;
};

/** Per variable: the literal history, a buffer without GC, one with GC (unbounded) and one with bound 3. */
interface Shadow {
  history: Write[];
  plain: WriteBuffer;
  collected: WriteBuffer;
  bounded: WriteBuffer;
}

class Probe extends VectorClockDetector {
  readonly name = 'probe';
  batch: EventBatch | undefined;
  readonly failures: string[] = [];
  reads = 0;
  /** Reads of a buffer whose entries form a chain, and of one whose do not. */
  chainReads = 0;
  generalReads = 0;
  private readonly shadows: Shadow[] = [];
  private readonly live: LiveSet;
  private readonly out = new Int32Array(4096);

  constructor(ctx: DetectorContext, spans: ThreadSpans) {
    super(ctx);
    this.live = new LiveSet(spans, (t) => this.thread(t));
  }

  override fork(t: number, u: number): void {
    super.fork(t, u);
    this.live.forked(u);
  }

  private shadow(x: number): Shadow {
    let s = this.shadows[x];
    if (s === undefined) {
      s = { history: [], plain: new WriteBuffer(), collected: new WriteBuffer(), bounded: new WriteBuffer() };
      this.shadows[x] = s;
    }
    return s;
  }

  protected access(
    t: number,
    x: number,
    loc: number,
    ev: number,
    write: boolean,
    _xact: boolean,
    tag: number,
  ): void {
    const s = this.shadow(x);
    const C = this.C;
    const off = t * C.width;
    if (write) {
      const b = this.batch as EventBatch;
      const id = tag === 0 ? b.value[ev - b.firstIndex] : -1;
      // equal values are common (so [GC2] runs): the value written, else 1 + the location modulo 2 (0 is initial)
      const value = id >= 0 ? id + 3 : 1 + (loc % 2);
      s.history.push({ value, clock: C.data.slice(off, off + C.width), seq: ev });
      s.plain.append(value, t, C.data, off, C.width, ev, loc);
      s.collected.append(value, t, C.data, off, C.width, ev, loc);
      collect(s.collected, this.live.at(ev, C), 1 << 20);
      s.bounded.append(value, t, C.data, off, C.width, ev, loc);
      collect(s.bounded, this.live.at(ev, C), 3);
      return;
    }
    this.reads++;
    // the literal rule over the whole history (the initial entry 0@⊥ first)
    const h = s.history;
    const literal = new Set<number>();
    const literalValues = new Set<number>();
    const bottom = new Int32Array(C.width);
    for (let i = -1; i < h.length; i++) {
      const Ki = i < 0 ? bottom : h[i].clock;
      let hidden = false;
      for (let j = i + 1; j < h.length && !hidden; j++)
        hidden = leq(Ki, h[j].clock, 0, h[j].clock.length) && leq(h[j].clock, C.data, off, C.width);
      if (!hidden) {
        literal.add(i < 0 ? -1 : h[i].seq);
        literalValues.add(i < 0 ? 0 : h[i].value);
      }
    }
    const seqs = (b: WriteBuffer) => {
      const k = visible(b, C.data, off, C.width, this.out);
      return [...this.out.subarray(0, k)].map((i) => b.seq[i]);
    };
    const values = (b: WriteBuffer) => {
      const k = visible(b, C.data, off, C.width, this.out);
      return new Set([...this.out.subarray(0, k)].map((i) => b.value[i]));
    };
    const at = `read of ${this.ctx.symbols.variables.name(x)} by T${t} at event ${ev}`;
    const plain = seqs(s.plain);
    if (plain.join() !== [...literal].join())
      this.failures.push(`${at}: scan ${plain} ≠ literal ${[...literal]}`);
    // both scans: the chain's (when it is one) and the general one
    if (s.plain.chain) {
      this.chainReads++;
      for (let i = 0; i < h.length; i++)
        for (let j = i + 1; j < h.length; j++)
          if (!leq(h[i].clock, h[j].clock, 0, h[j].clock.length))
            this.failures.push(`${at}: a chain, but write ${i} does not happen before write ${j}`);
      s.plain.chain = false;
      const general = seqs(s.plain);
      s.plain.chain = true;
      if (general.join() !== [...literal].join())
        this.failures.push(`${at}: general scan ${general} ≠ literal ${[...literal]}`);
    } else this.generalReads++;
    const got = [...values(s.collected)].sort();
    const want = [...literalValues].sort();
    if (got.join() !== want.join()) this.failures.push(`${at}: with GC ${got} ≠ literal ${want}`);
    const bounded = values(s.bounded);
    for (const v of bounded)
      if (!literalValues.has(v)) this.failures.push(`${at}: bounded sees ${v}, illegal`);
    if (bounded.size < literalValues.size && s.bounded.droppedVisible === 0)
      this.failures.push(`${at}: bounded lost values without counting a visible drop`);
  }

  protected resetVariable(x: number): void {
    const s = this.shadows[x];
    if (s === undefined) return;
    s.history.length = 0;
    s.plain.reset();
    s.collected.reset();
    s.bounded.reset();
  }

  stats(): Record<string, number> {
    return {};
  }
}

function probe(text: string): Probe {
  const symbols = new Symbols();
  const spans = new ThreadSpans();
  const buf = Buffer.from(text, 'utf8');
  readTraceBuffer(buf, '<generated>', symbols, (b) => spans.add(b));
  const engine = new Engine(symbols, [], { file: '<generated>' }, () => '');
  const p = new Probe({ symbols, locks: engine.locks, sink: { race() {} } }, spans);
  engine.detectors.push(p);
  readTraceBuffer(buf, '<generated>', symbols, (b) => {
    p.batch = b;
    engine.process(b);
  });
  return p;
}

describe('the visible set and garbage collection against the literal Figure 6 rules', () => {
  test('on random feasible traces (shrinking on)', () => {
    let reads = 0;
    let chainReads = 0;
    let generalReads = 0;
    fc.assert(
      fc.property(feasibleTrace({ maxCommands: 60, maxVars: 2 }), (g) => {
        const p = probe(g.text);
        reads += p.reads;
        chainReads += p.chainReads;
        generalReads += p.generalReads;
        assert.deepEqual(p.failures, [], g.text);
      }),
      { numRuns: 400 },
    );
    assert.ok(reads > 1000, `the traces read enough (${reads} reads)`);
    assert.ok(chainReads > 100 && generalReads > 100, `both scans ran (${chainReads}, ${generalReads})`);
  });

  test('a thread starting later without a fork blocks [GC1] until it starts', () => {
    // T2 starts unforked after the writes: it may read every value — nothing may be collected before it starts
    const p = probe(
      'T0|w(x)=1|\nT1|w(x)=2|\nT0|w(x)=3|\nT0|w(x)=4|\nT0|w(x)=5|\nT0|w(x)=6|\nT1|r(x)|\nT2|r(x)|\n',
    );
    assert.deepEqual(p.failures, []);
  });
});
