import { TraceError } from '../model/errors.js';
import {
  ACQUIRE,
  ENTER,
  type EventBatch,
  EXIT,
  FORK,
  JOIN,
  NOTIFY,
  READ,
  RELEASE,
  VOLATILE_READ,
  VOLATILE_WRITE,
  WRITE,
} from '../model/events.js';
import type { Symbols } from '../model/symbols.js';
import type { TraceParser } from './parser.js';

/** Events of RoadRunner's PrintTool that carry no happens-before edge in our model: skipped and counted. */
const IGNORED = new Set([
  'Sleep',
  'Interrupt',
  'Interrupted',
  'ClassInited',
  'ClassAccssed',
  'ClassAccessed',
  'pre',
  'test',
  'Barrier',
]);

interface PendingJoin {
  child: number;
  loc: number;
  line: number;
}

/**
 * Parser of RoadRunner's print format: the `@ ...` lines that `rrrun -noFP -tool=P` (rr/simple/PrintTool)
 * writes, e.g. `@  Rd(1,@03.test/Test.x_I)  Final  Test.java:12:8`. Mapping (docs/FORMATS.md):
 * Rd/Wr/ARd/AWr → read/write; VRd/VWr → volatile read/write; Acquire/Release → acq/rel; Start(p,c) → fork;
 * Join(p,c) → join; Wait → rel at the first (pre) line and acq at the second (post) line; Notify → notify;
 * Enter/Exit → method markers. PrintTool prints Start, Join, Wait and Notify twice (pre and post): the
 * duplicates are merged (the join is taken at its post line, when the child has ended) and counted.
 * Lines not starting with `@` are RoadRunner's log, skipped and counted.
 */
export class RoadRunnerParser implements TraceParser {
  readonly format = 'rr';
  readonly skipped = new Map<string, number>();
  private lineNo = 0;
  /** Thread -> pending Join (printed at pre-join; confirmed by the post line or the parent's next event). */
  private readonly pendingJoins = new Map<number, PendingJoin>();
  /** (parent, child) pairs of Start lines seen once (the next identical line is the post-start duplicate). */
  private readonly startedBy = new Map<number, number>();
  private readonly waiting = new Set<number>();
  private readonly notifying = new Set<number>();

  constructor(
    private readonly symbols: Symbols,
    private readonly file: string,
  ) {}

  parse(buf: Buffer, pos: number, end: number, eof: boolean, batch: EventBatch): number {
    // Each line may emit up to two events (a pending join, then the event).
    while (pos < end && batch.length + 2 <= batch.capacity) {
      let nl = buf.indexOf(0x0a, pos);
      if (nl < 0 || nl >= end) {
        if (!eof) break;
        nl = end;
      }
      let le = nl;
      if (le > pos && buf[le - 1] === 0x0d) le--;
      this.lineNo++;
      this.parseLine(buf.toString('utf8', pos, le), batch);
      pos = nl + 1;
    }
    return Math.min(pos, end);
  }

  get lines(): number {
    return this.lineNo;
  }

  finish(batch: EventBatch): void {
    for (const [parent, j] of this.pendingJoins) batch.push(JOIN, parent, j.child, j.loc, -1, j.line);
    this.pendingJoins.clear();
  }

  private count(reason: string): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1);
  }

  private error(text: string, column: number, expected: string): never {
    throw new TraceError(this.file, this.lineNo, column, text, expected);
  }

  private parseLine(text: string, batch: EventBatch): void {
    if (text.length === 0) {
      this.count('blank line');
      return;
    }
    if (text[0] !== '@') {
      this.count('RoadRunner log line (not starting with @)');
      return;
    }
    let i = 1;
    while (i < text.length && text[i] === ' ') i++;
    const open = text.indexOf('(', i);
    const name = text.slice(i, open < 0 ? text.length : open).split(' ')[0];
    if (IGNORED.has(name)) {
      this.count(`RoadRunner ${name} line (no happens-before edge in the model)`);
      return;
    }
    if (open < 0) this.error(text, i + 1, 'expected a RoadRunner event NAME(ARGS)');
    // The event text ends at the first double space ("  Final  Loc") or " from " (Enter).
    let stop = text.indexOf('  ', open);
    if (name === 'Enter') {
      const from = text.indexOf(') from ', open);
      if (from >= 0) stop = from + 1;
    }
    if (stop < 0) stop = text.length;
    const close = text.lastIndexOf(')', stop - 1);
    if (close < open) this.error(text, stop + 1, "expected ')' closing the event's arguments");
    const args = text.slice(open + 1, close);
    const comma = args.indexOf(',');
    if (comma <= 0) this.error(text, open + 2, 'expected THREAD,TARGET inside ( )');
    const s = this.symbols;
    const thread = s.threads.intern(args.slice(0, comma));
    const target = args.slice(comma + 1);
    const rest = text
      .slice(close + 1)
      .split('  ')
      .filter((x) => x.length > 0);
    const locText = rest.length >= 2 ? rest[rest.length - 1] : '';
    const loc = locText === '' ? 0 : s.locations.intern(locText);
    const line = this.lineNo;

    const pending = this.pendingJoins.get(thread);
    if (pending !== undefined && !(name === 'Join' && s.threads.intern(target) === pending.child)) {
      batch.push(JOIN, thread, pending.child, pending.loc, -1, pending.line);
      this.pendingJoins.delete(thread);
    }
    for (const [parent, j] of this.pendingJoins) {
      if (j.child === thread) {
        // The child still runs: that Join line was printed before the join (pre-join).
        this.pendingJoins.delete(parent);
        this.count('pre-join line (child still running)');
      }
    }
    switch (name) {
      case 'Rd':
      case 'ARd':
        batch.push(READ, thread, s.variableNamed(target), loc, -1, line);
        return;
      case 'Wr':
      case 'AWr':
        batch.push(WRITE, thread, s.variableNamed(target), loc, -1, line);
        return;
      case 'VRd':
        batch.push(VOLATILE_READ, thread, s.volatiles.intern(target), loc, -1, line);
        return;
      case 'VWr':
        batch.push(VOLATILE_WRITE, thread, s.volatiles.intern(target), loc, -1, line);
        return;
      case 'Acquire':
        batch.push(ACQUIRE, thread, s.locks.intern(target), loc, -1, line);
        return;
      case 'Release':
        batch.push(RELEASE, thread, s.locks.intern(target), loc, -1, line);
        return;
      case 'Wait': {
        const lock = s.locks.intern(target);
        if (this.waiting.delete(thread)) batch.push(ACQUIRE, thread, lock, loc, -1, line);
        else {
          this.waiting.add(thread);
          batch.push(RELEASE, thread, lock, loc, -1, line);
        }
        return;
      }
      case 'Notify': {
        const lock = s.locks.intern(target.split(',')[0]);
        if (this.notifying.delete(thread)) {
          this.count('post-notify line (duplicate of the pre line)');
          return;
        }
        this.notifying.add(thread);
        batch.push(NOTIFY, thread, lock, loc, -1, line);
        return;
      }
      case 'Start': {
        const child = s.threads.intern(target);
        if (this.startedBy.get(child) === thread) {
          this.startedBy.delete(child);
          this.count('post-start line (duplicate of the pre line)');
          return;
        }
        this.startedBy.set(child, thread);
        batch.push(FORK, thread, child, loc, -1, line);
        return;
      }
      case 'Join': {
        const child = s.threads.intern(target);
        if (pending !== undefined && pending.child === child) {
          this.pendingJoins.delete(thread);
          this.count('pre-join line (duplicate of the post line)');
          batch.push(JOIN, thread, child, loc, -1, line);
        } else this.pendingJoins.set(thread, { child, loc, line });
        return;
      }
      case 'Enter':
      case 'Exit':
        if (target.length === 0) this.error(text, open + 2, 'expected a method name');
        batch.push(name === 'Enter' ? ENTER : EXIT, thread, s.markers.intern(target), 0, -1, line);
        return;
      default:
        this.error(
          text,
          i + 1,
          `expected a RoadRunner event (Rd, Wr, ARd, AWr, VRd, VWr, Acquire, Release, Start, Join, Wait, Notify, Enter, Exit), found '${name}'`,
        );
    }
  }
}
