/**
 * `goldilocks run --record FILE`: writes what the processes of a run recorded (`../live/record.ts`) as one
 * trace in the extended format (docs/FORMATS.md), which `goldilocks check` replays offline. The encoding and its
 * one difference from the live verdicts are in docs/RUNTIME.md "Recording".
 *
 * Per process: the synchronization event list in order, and before each cell `p` the data accesses checked when
 * the list had `p` cells, in `seq` order. Threads are `T<threadId>`. A data variable `sab#B+O` is the bytes of
 * shared buffer B from offset O up to the next variable of B: the bytes are cut wherever some recorded access (or
 * atomic operation) starts or ends, so every access covers whole variables and the bytes of one variable always see
 * the same accesses — per-byte verdicts with one event per variable touched, not per byte. With several processes
 * (`run -- command`), every name gets the process's prefix `<n>/`, as in the merged JSON report.
 *
 * A transaction's commit cell (`../live/stm-observer.ts`) becomes one `commit(R;W)` event at its place in the list:
 * R and W are the variables of the transactional (XACT) accesses its thread checked after it (a thread appends no
 * cell between its commit cell and those checks, so they are its records whose `pos` follows that cell before its
 * next one), written at the commit and not as `r`/`w` events.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CELL, Tag } from '../live/memory/state.js';
import { CHUNK_RECORDS, RECORD, type RecordMeta, VALUE } from '../live/record.js';
import { Access, objectKey, packA, Shadow } from '../live/shadow/goldilocks.js';
import { SyncKind } from '../model/sync.js';
import { writeAll } from '../trace/write-all.js';

/** What {@link writeRecordedTrace} wrote. */
export interface RecordedTrace {
  /** Events (lines that are not comments). */
  events: number;
  /** Processes whose recording is in the trace. */
  processes: number;
  /** Pids of processes that recorded accesses but never wrote their list (killed): left out. */
  missing: number[];
}

/**
 * Writes the trace of the recording directory `dir` (one `<pid>/` per process) to `file`.
 * @throws Error from the file system (e.g. ENOENT for a missing directory of `file`).
 */
export function writeRecordedTrace(dir: string, file: string, command: string): RecordedTrace {
  const pids = existsSync(dir)
    ? readdirSync(dir)
        .filter((d) => /^\d+$/.test(d))
        .map(Number)
        .sort((a, b) => a - b)
    : [];
  const complete = pids.filter((p) => existsSync(path.join(dir, String(p), 'meta.json')));
  const out = new LineWriter(file);
  try {
    out.comment(`goldilocks run --record: ${command}`);
    out.comment(
      'sab#B+O = bytes of shared buffer B from offset O to the next variable of B (docs/RUNTIME.md)',
    );
    complete.forEach((pid, i) => {
      writeProcess(path.join(dir, String(pid)), complete.length > 1 ? `${i}/` : '', out);
    });
  } finally {
    out.close();
  }
  return {
    events: out.events,
    processes: complete.length,
    missing: pids.filter((p) => !complete.includes(p)),
  };
}

/** Buffered line output. */
class LineWriter {
  events = 0;
  private lines: string[] = [];
  private readonly fd: number;
  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }
  comment(text: string): void {
    this.lines.push(`# ${text.replace(/[\r\n]/g, ' ')}`);
  }
  /** An event line: `thread`, then `rest` = `OP|LOC`. */
  event(thread: string, rest: string): void {
    this.events++;
    this.lines.push(`${thread}|${rest}`);
    if (this.lines.length >= 1 << 16) this.flush();
  }
  private flush(): void {
    if (this.lines.length > 0) writeAll(this.fd, Buffer.from(`${this.lines.join('\n')}\n`));
    this.lines = [];
  }
  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }
}

/** The recorded accesses of one process, as parallel arrays. */
interface Accesses {
  n: number;
  thread: Int32Array;
  pos: Int32Array;
  seq: Float64Array;
  word: Int32Array;
  bits: Int32Array;
  site: Int32Array;
  /** The word's bytes 0-3 and 4-7 (little-endian), of which the mask's are the value when `bits` has VALUE. */
  lo: Int32Array;
  hi: Int32Array;
}

/** Reads every `*.log` of a process directory (blocks of `../live/record.ts`; a truncated block is cut). */
function readAccesses(dir: string): Accesses {
  const blocks: Int32Array[] = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.log'))) {
    const bytes = readFileSync(path.join(dir, f));
    blocks.push(new Int32Array(new Uint8Array(bytes).buffer, 0, bytes.length >> 2));
  }
  /** Calls `each(block, at, count)` for the blocks of `b` (header at `at`). */
  const blocksOf = (b: Int32Array, each: (at: number, count: number) => void): void => {
    for (let at = 0; at + 2 <= b.length; ) {
      const count = Math.min(b[at + 1], CHUNK_RECORDS, Math.floor((b.length - at - 2) / RECORD));
      if (count < 0) break;
      each(at, count);
      at += 2 + count * RECORD;
    }
  };
  let n = 0;
  for (const b of blocks)
    blocksOf(b, (_, count) => {
      n += count;
    });
  const a: Accesses = {
    n,
    thread: new Int32Array(n),
    pos: new Int32Array(n),
    seq: new Float64Array(n),
    word: new Int32Array(n),
    bits: new Int32Array(n),
    site: new Int32Array(n),
    lo: new Int32Array(n),
    hi: new Int32Array(n),
  };
  let i = 0;
  for (const b of blocks) {
    blocksOf(b, (at, count) => {
      for (let r = at + 2, end = r + count * RECORD; r < end; r += RECORD, i++) {
        a.thread[i] = b[at];
        a.pos[i] = b[r];
        a.seq[i] = b[r + 1] >>> 0;
        a.word[i] = b[r + 2];
        a.bits[i] = b[r + 3];
        a.site[i] = b[r + 4];
        a.lo[i] = b[r + 5];
        a.hi[i] = b[r + 6];
      }
    });
  }
  return a;
}

/**
 * The accesses in trace order — by `pos`, then `seq` — one per `seq` (a record written twice is dropped), by
 * placing them at their `seq` then a stable counting sort on `pos`: linear in accesses + sequence numbers + cells.
 */
function traceOrder(a: Accesses): Int32Array {
  if (a.n === 0) return new Int32Array(0);
  let minSeq = Number.POSITIVE_INFINITY;
  let maxSeq = 0;
  let maxPos = 0;
  for (let i = 0; i < a.n; i++) {
    minSeq = Math.min(minSeq, a.seq[i]);
    maxSeq = Math.max(maxSeq, a.seq[i]);
    maxPos = Math.max(maxPos, a.pos[i]);
  }
  const bySeq = new Int32Array(maxSeq - minSeq + 1).fill(-1);
  for (let i = 0; i < a.n; i++) bySeq[a.seq[i] - minSeq] = i;
  const start = new Int32Array(maxPos + 2);
  let m = 0;
  for (const i of bySeq) {
    if (i < 0) continue;
    start[a.pos[i] + 1]++;
    m++;
  }
  for (let p = 1; p < start.length; p++) start[p] += start[p - 1];
  const order = new Int32Array(m);
  for (const i of bySeq) if (i >= 0) order[start[a.pos[i]]++] = i;
  return order;
}

/** The byte ranges of a buffer cut into variables (see the file header). */
class Variables {
  private cuts = new Set<number>();
  /** Sorted distinct cut offsets: variable k is the bytes [offsets[k], offsets[k + 1]). */
  offsets: Float64Array = new Float64Array(0);
  private names: string[] = [];

  constructor(
    private readonly prefix: string,
    private readonly id: number,
  ) {}

  cut(lo: number, hi: number): void {
    this.cuts.add(lo).add(hi);
  }
  seal(): void {
    this.offsets = Float64Array.from(this.cuts).sort();
    this.cuts.clear();
  }
  /** The index of the variable starting at byte `lo` (a cut). */
  first(lo: number): number {
    const c = this.offsets;
    let i = 0;
    for (let step = 1 << 30; step > 0; step >>= 1) if (i + step < c.length && c[i + step] <= lo) i += step;
    return i;
  }
  /** The trace name of variable `k`: `sab#B+O`. */
  name(k: number): string {
    let n = this.names[k];
    if (n === undefined) {
      n = `${this.prefix}sab#${this.id}+${this.offsets[k]}`;
      this.names[k] = n;
    }
    return n;
  }
}

/** Writes the events of one process's recording directory. */
function writeProcess(dir: string, prefix: string, out: LineWriter): void {
  const meta = JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8')) as RecordMeta;
  const bytes = readFileSync(path.join(dir, 'list.bin'));
  const list = new Int32Array(
    new Uint8Array(bytes).buffer,
    0,
    Math.min(meta.listEnd * CELL, bytes.length >> 2),
  );
  const cells = list.length / CELL;
  const acc = readAccesses(dir);
  const order = traceOrder(acc);
  const commits = commitAccesses(list, acc, order);

  // each access's buffer and absolute byte range [lo, hi) (checkRange's word masks are contiguous)
  const tables = [...meta.buffers].sort((x, y) => x[1] - y[1]);
  const buf = new Int32Array(acc.n);
  const lo = new Float64Array(acc.n);
  const hi = new Float64Array(acc.n);
  const wordAt = new Float64Array(acc.n); // the byte offset of the access's word in its buffer
  const vars = new Map<number, Variables>();
  const varsOf = (id: number): Variables => {
    let v = vars.get(id);
    if (v === undefined) {
      v = new Variables(prefix, id);
      vars.set(id, v);
    }
    return v;
  };
  for (let i = 0; i < acc.n; i++) {
    const w = acc.word[i];
    let k = -1;
    for (let l = 0, h = tables.length - 1; l <= h; ) {
      const mid = (l + h) >> 1;
      if (tables[mid][1] <= w) {
        k = mid;
        l = mid + 1;
      } else h = mid - 1;
    }
    if (k < 0 || w >= tables[k][1] + tables[k][2])
      throw new Error(`${dir}: shadow word ${w} is in no buffer`);
    const mask = acc.bits[i] & 0xff;
    const base = (w - tables[k][1]) * 8;
    buf[i] = tables[k][0];
    wordAt[i] = base;
    lo[i] = base + 31 - Math.clz32(mask & -mask);
    hi[i] = base + 32 - Math.clz32(mask);
    // a commit's mask merges its accesses of the word and may have gaps: each run of bytes is cut
    if (acc.bits[i] & Access.XACT)
      for (const [from, to] of runsOf(mask)) varsOf(buf[i]).cut(base + from, base + to);
    else varsOf(buf[i]).cut(lo[i], hi[i]);
  }
  for (const v of vars.values()) v.seal();

  const locs: string[] = [];
  const loc = (site: number): string => (locs[site] ??= (meta.strings[site] ?? '').replace(/[|\r\n]/g, '_'));
  const threads: string[] = [];
  const thread = (t: number): string => (threads[t] ??= `${prefix}T${t}`);
  const object = (c: number): string => prefix + Shadow.keyName(objectKey(list[c + 2], list[c + 3]));
  /** An atomic access's location (its element's bytes), named as its cells name it. */
  const atomicLocation = (i: number): string =>
    prefix + Shadow.keyName(objectKey(packA(Tag.Atomic, buf[i]), lo[i] * 4 + Math.log2(hi[i] - lo[i])));
  const benign = meta.benign ?? [];
  /** Does access i touch bytes annotated benign? Such accesses are left out (`RecordMeta.benign`). */
  const isBenign = (i: number): boolean => benign.some(([b, l, h]) => b === buf[i] && lo[i] < h && l < hi[i]);
  /** Calls `each(name)` for the variables of the bytes of access i (every run of its mask). */
  const variablesOf = (i: number, each: (name: string) => void): void => {
    const v = vars.get(buf[i])!;
    for (const [from, to] of runsOf(acc.bits[i] & 0xff))
      for (let k = v.first(wordAt[i] + from); k < v.offsets.length && v.offsets[k] < wordAt[i] + to; k++)
        each(v.name(k));
  };
  /** The `commit(R;W)` event of the commit cell at `c` (list index) from its accesses. */
  const commitEvent = (c: number, accesses: number[]): void => {
    const reads = new Set<string>();
    const writes = new Set<string>();
    for (const i of accesses)
      if (!(benign.length > 0 && isBenign(i)))
        variablesOf(i, (n) => (acc.bits[i] & Access.WRITE ? writes : reads).add(n));
    if (reads.size + writes.size === 0) return;
    out.event(
      thread(list[c + 1]),
      `commit(${[...reads].join(',')};${[...writes].join(',')})|${loc(acc.site[accesses[0]])}`,
    );
  };
  let next = 0;
  const accessesBefore = (cell: number): void => {
    for (; next < order.length && acc.pos[order[next]] <= cell; next++) {
      const i = order[next];
      if (benign.length > 0 && isBenign(i)) continue;
      const bits = acc.bits[i];
      if (bits & Access.XACT) continue; // written with its commit
      const atomic = (bits & Access.ATOMIC) !== 0;
      const op = atomic ? (bits & Access.WRITE ? 'awd(' : 'ard(') : bits & Access.WRITE ? 'w(' : 'r(';
      const t = thread(acc.thread[i]);
      const close = atomic ? `,${atomicLocation(i)})` : ')';
      const where = `|${loc(acc.site[i])}`;
      const v = vars.get(buf[i])!;
      const valued = (bits & VALUE) !== 0;
      for (let k = v.first(lo[i]); k < v.offsets.length && v.offsets[k] < hi[i]; k++) {
        const end = k + 1 < v.offsets.length ? Math.min(v.offsets[k + 1], hi[i]) : hi[i];
        const value = valued
          ? `=${valueText(acc.lo[i], acc.hi[i], v.offsets[k] - wordAt[i], end - wordAt[i])}`
          : '';
        out.event(t, op + v.name(k) + close + value + where);
      }
    }
  };
  const SYNC: Record<number, string> = {
    [SyncKind.Acquire]: 'acq',
    [SyncKind.Release]: 'rel',
    [SyncKind.AtomicRead]: 'ar',
    [SyncKind.AtomicWrite]: 'aw',
    [SyncKind.AtomicRmw]: 'armw',
    [SyncKind.Send]: 'vw',
    [SyncKind.Receive]: 'vr',
    [SyncKind.Publish]: 'vw',
    [SyncKind.Subscribe]: 'vr',
  };
  for (let p = 0; p < cells; p++) {
    accessesBefore(p);
    const c = p * CELL;
    const kind = list[c];
    const t = thread(list[c + 1]);
    if (kind === SyncKind.Fork || kind === SyncKind.Join) {
      out.event(t, `${kind === SyncKind.Fork ? 'fork' : 'join'}(${thread(list[c + 3])})|`);
      continue;
    }
    if (kind === SyncKind.Commit) {
      const accesses = commits.get(p);
      if (accesses !== undefined) commitEvent(c, accesses);
      continue;
    }
    const op = SYNC[kind];
    if (op === undefined) throw new Error(`${dir}: cell ${p} has an unknown kind ${kind}`);
    out.event(t, `${op}(${object(c)})|`);
  }
  accessesBefore(Number.POSITIVE_INFINITY);
}

/**
 * The transactional accesses of each commit cell (by list position), in trace order: an XACT record of thread t
 * with `pos` q belongs to t's last commit cell before q.
 */
function commitAccesses(list: Int32Array, acc: Accesses, order: Int32Array): Map<number, number[]> {
  const byThread = new Map<number, number[]>(); // each thread's commit cells, in list order
  for (let p = 0, n = list.length / CELL; p < n; p++) {
    if (list[p * CELL] !== SyncKind.Commit) continue;
    const t = list[p * CELL + 1];
    let cells = byThread.get(t);
    if (cells === undefined) {
      cells = [];
      byThread.set(t, cells);
    }
    cells.push(p);
  }
  const commits = new Map<number, number[]>();
  for (const i of order) {
    if ((acc.bits[i] & Access.XACT) === 0) continue;
    const cells = byThread.get(acc.thread[i]);
    if (cells === undefined) continue;
    let k = -1; // the last cell before pos
    for (let l = 0, h = cells.length - 1; l <= h; ) {
      const mid = (l + h) >> 1;
      if (cells[mid] < acc.pos[i]) {
        k = mid;
        l = mid + 1;
      } else h = mid - 1;
    }
    if (k < 0) continue;
    let accesses = commits.get(cells[k]);
    if (accesses === undefined) {
      accesses = [];
      commits.set(cells[k], accesses);
    }
    accesses.push(i);
  }
  return commits;
}

/** The runs of set bits of an 8-bit byte mask, as [from, to) byte pairs. */
function runsOf(mask: number): [number, number][] {
  const runs: [number, number][] = [];
  for (let b = 0; b < 8; ) {
    if (((mask >>> b) & 1) === 0) {
      b++;
      continue;
    }
    const from = b;
    while (b < 8 && (mask >>> b) & 1) b++;
    runs.push([from, b]);
  }
  return runs;
}

/**
 * The trace text of a recorded value: the bytes [from, to) (0-7) of the word whose bytes 0-3 are `lo` and 4-7 `hi`
 * (little-endian), as `0x` and two hex digits per byte in address order (docs/RUNTIME.md "Recording"): exact bytes,
 * so that floats and NaNs compare exactly; all zeros is the initial value of `check --adversarial`.
 */
export function valueText(lo: number, hi: number, from: number, to: number): string {
  let text = '0x';
  for (let b = from; b < to; b++) {
    const byte = (b < 4 ? lo >>> (8 * b) : hi >>> (8 * (b - 4))) & 0xff;
    text += byte < 16 ? `0${byte.toString(16)}` : byte.toString(16);
  }
  return text;
}
