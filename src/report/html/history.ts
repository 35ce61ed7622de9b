/**
 * The evidence of `goldilocks check --html` (issue 25 §2): the trace's synchronization events, kept while the check
 * runs by {@link SyncHistory} (a RoadRunner-style tool beside the detectors: it sees every event and reports
 * nothing), and per race the events between its two accesses with the lockset of the variable after each one —
 * the paper's Figure 6 (Elmas, Qadeer, Tasiran, PLDI'07 §2): LS starts as {t} after the previous access of thread
 * t (rule 1) and grows by the Figure 5 rules (`../../detectors/goldilocks/rules.ts` `applyRule`, the kernel both
 * front ends use); the race is the current thread's absence from it.
 *
 * Memory: 16 bytes per synchronization event of the trace (only with `--html`).
 */
import type { Detector } from '../../detectors/detector.js';
import { applyRule, type RuleLockset } from '../../detectors/goldilocks/rules.js';
import type { Symbols } from '../../model/symbols.js';
import { SyncKind } from '../../model/sync.js';
import type { JsonRace } from '../json.js';

/** One synchronization event between a race's two accesses, with the variable's lockset after it. */
export interface EvidenceEvent {
  /** 0-based event index in the trace. */
  index: number;
  thread: string;
  /** The event as the extended format writes it: `rel(l)`, `vw(v)`, `fork(T2)`... */
  text: string;
  /** The lockset after the event. */
  lockset: string[];
  /** Did the event change the lockset? */
  changed: boolean;
}

/** What the page shows of a race beyond its record (`./page.ts`). */
export interface Evidence {
  /** The lockset right after the previous access (rule 1). */
  start: string[];
  /** The synchronization events between the two accesses, in trace order (at most {@link MAX_EVENTS}). */
  events: EvidenceEvent[];
  /** Events between the two accesses left out of `events` (the middle of a long stretch). */
  omitted: number;
  /** Events between the two accesses that changed the lockset, omitted ones included. */
  changes: number;
  /** The lockset at the current access. */
  end: string[];
}

/** Events of a stretch shown at most: the first and last half of it. */
export const MAX_EVENTS = 300;

/** The extended-format name of each kind kept. */
const NAMES: Record<number, string> = {
  [SyncKind.Acquire]: 'acq',
  [SyncKind.Release]: 'rel',
  [SyncKind.Fork]: 'fork',
  [SyncKind.Join]: 'join',
  [SyncKind.VolatileRead]: 'vr',
  [SyncKind.VolatileWrite]: 'vw',
  [SyncKind.AtomicWrite]: 'aw',
  [SyncKind.Commit]: 'commit',
};

/** The synchronization events of a trace, as the engine passes them to detectors (compound events expanded). */
export class SyncHistory implements Detector {
  readonly name = 'history';
  private kinds = new Int32Array(1024);
  private threads = new Int32Array(1024);
  private targets = new Int32Array(1024);
  private indexes = new Int32Array(1024);
  /** Commit sets (R ∪ W) by event position. */
  private readonly sets = new Map<number, Int32Array>();
  length = 0;

  private add(kind: number, t: number, y: number, ev: number): void {
    if (this.length === this.kinds.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.kinds = grow(this.kinds);
      this.threads = grow(this.threads);
      this.targets = grow(this.targets);
      this.indexes = grow(this.indexes);
    }
    const i = this.length++;
    this.kinds[i] = kind;
    this.threads[i] = t;
    this.targets[i] = y;
    this.indexes[i] = ev;
  }

  read(): void {}
  write(): void {}
  atomicAccess(): void {}
  alloc(): void {}
  acquire(t: number, l: number, ev: number): void {
    this.add(SyncKind.Acquire, t, l, ev);
  }
  release(t: number, l: number, ev: number): void {
    this.add(SyncKind.Release, t, l, ev);
  }
  volatileRead(t: number, v: number, ev: number): void {
    this.add(SyncKind.VolatileRead, t, v, ev);
  }
  volatileWrite(t: number, v: number, ev: number): void {
    this.add(SyncKind.VolatileWrite, t, v, ev);
  }
  atomicWrite(t: number, v: number, ev: number): void {
    this.add(SyncKind.AtomicWrite, t, v, ev);
  }
  fork(t: number, u: number, ev: number): void {
    this.add(SyncKind.Fork, t, u, ev);
  }
  join(t: number, u: number, ev: number): void {
    this.add(SyncKind.Join, t, u, ev);
  }
  commit(t: number, pool: Int32Array, off: number, _loc: number, ev: number): void {
    this.sets.set(this.length, pool.slice(off + 2, off + 2 + pool[off] + pool[off + 1]));
    this.add(SyncKind.Commit, t, 0, ev);
  }
  stats(): Record<string, number> {
    return { events: this.length };
  }

  /** Position of the first kept event with index > `ev`. */
  private after(ev: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.indexes[mid] <= ev) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The evidence of `race` (trace indexes of both accesses), named by `symbols`. */
  evidence(race: JsonRace, symbols: Symbols): Evidence {
    const ls = new NamedLockset(symbols);
    const prev = symbols.threads.lookup(race.previous.thread);
    if (prev >= 0) ls.addThread(prev);
    const start = ls.names();
    const from = this.after(race.previous.index);
    const to = this.after(race.current.index - 1);
    const events: EvidenceEvent[] = [];
    const n = to - from;
    const half = MAX_EVENTS / 2;
    let changes = 0;
    for (let p = from; p < to; p++) {
      const before = ls.size;
      const kind = this.kinds[p];
      applyRule(ls, kind, this.threads[p], this.targets[p], this.sets.get(p) ?? null);
      const changed = ls.size !== before || ls.removed;
      ls.removed = false;
      if (changed) changes++;
      if (n > MAX_EVENTS && p - from >= half && to - p > half) continue;
      events.push({
        index: this.indexes[p],
        thread: symbols.threads.name(this.threads[p]),
        text: this.text(p, symbols),
        lockset: ls.names(),
        changed,
      });
    }
    return { start, events, omitted: Math.max(0, n - MAX_EVENTS), changes, end: ls.names() };
  }

  /** Event at position `p` as text. */
  private text(p: number, s: Symbols): string {
    const kind = this.kinds[p];
    const y = this.targets[p];
    switch (kind) {
      case SyncKind.Acquire:
      case SyncKind.Release:
        return `${NAMES[kind]}(${s.locks.name(y)})`;
      case SyncKind.Fork:
      case SyncKind.Join:
        return `${NAMES[kind]}(${s.threads.name(y)})`;
      case SyncKind.Commit:
        return `commit(${[...(this.sets.get(p) ?? [])].map((x) => s.variables.name(x)).join(', ')})`;
      default:
        return `${NAMES[kind]}(${s.volatiles.name(y)})`;
    }
  }
}

/** A lockset of interned ids in Figure 5's namespaces, named for the page. */
class NamedLockset implements RuleLockset {
  private readonly threads = new Set<number>();
  private readonly locks = new Set<number>();
  private readonly volatiles = new Set<number>();
  private readonly data = new Set<number>();
  /** Set when an element was removed (an atomic write by a thread outside the lockset). */
  removed = false;

  constructor(private readonly s: Symbols) {}

  get size(): number {
    return this.threads.size + this.locks.size + this.volatiles.size + this.data.size;
  }
  hasThread(t: number): boolean {
    return this.threads.has(t);
  }
  addThread(t: number): void {
    this.threads.add(t);
  }
  hasLock(l: number): boolean {
    return this.locks.has(l);
  }
  addLock(l: number): void {
    this.locks.add(l);
  }
  hasVolatile(v: number): boolean {
    return this.volatiles.has(v);
  }
  addVolatile(v: number): void {
    this.volatiles.add(v);
  }
  removeVolatile(v: number): void {
    if (this.volatiles.delete(v)) this.removed = true;
  }
  hasData(x: number): boolean {
    return this.data.has(x);
  }
  addData(x: number): void {
    this.data.add(x);
  }

  /** The elements' names: threads, then locks, volatiles and variables, each in order of entry. */
  names(): string[] {
    const s = this.s;
    return [
      ...[...this.threads].map((t) => s.threads.name(t)),
      ...[...this.locks].map((l) => s.locks.name(l)),
      ...[...this.volatiles].map((v) => s.volatiles.name(v)),
      ...[...this.data].map((x) => s.variables.name(x)),
    ];
  }
}
