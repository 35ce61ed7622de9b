/**
 * `goldilocks run --record FILE`: writes what the processes of a run recorded (`../runtime/record.ts`) as one
 * trace in the extended format (docs/FORMATS.md), which `goldilocks check` replays offline. The encoding and its
 * one difference from the live verdicts are in docs/RUNTIME.md "Recording".
 *
 * Per process: the synchronization event list in order, and before each cell `p` the data accesses checked when
 * the list had `p` cells, in `seq` order. Threads are `T<threadId>`. A data variable `sab#B+O` is the bytes of
 * shared buffer B from offset O up to the next variable of B: the bytes are cut wherever some recorded access (or
 * atomic write) starts or ends, so every access covers whole variables and the bytes of one variable always see
 * the same accesses — per-byte verdicts with one event per variable touched, not per byte. With several processes
 * (`run -- command`), every name gets the process's prefix `<n>/`, as in the merged JSON report.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CHUNK_RECORDS, RECORD, type RecordMeta } from '../runtime/record.js';
import { objectKey, Shadow, WRITE } from '../runtime/shadow.js';
import { CELL, Cell, TAG_SHIFT } from '../runtime/state.js';
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
  event(thread: string, op: string, loc: string): void {
    this.events++;
    this.lines.push(`${thread}|${op}|${loc}`);
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
}

/** Reads every `*.log` of a process directory (blocks of `../runtime/record.ts`). */
function readAccesses(dir: string): Accesses {
  const blocks: Int32Array[] = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.log'))) {
    const bytes = readFileSync(path.join(dir, f));
    blocks.push(new Int32Array(new Uint8Array(bytes).buffer, 0, bytes.length >> 2));
  }
  let n = 0;
  for (const b of blocks) {
    for (let at = 0; at + 2 <= b.length; at += 2 + b[at + 1] * RECORD) n += b[at + 1];
  }
  const a: Accesses = {
    n: 0,
    thread: new Int32Array(n),
    pos: new Int32Array(n),
    seq: new Float64Array(n),
    word: new Int32Array(n),
    bits: new Int32Array(n),
    site: new Int32Array(n),
  };
  for (const b of blocks) {
    for (let at = 0; at + 2 <= b.length; ) {
      const count = Math.min(b[at + 1], CHUNK_RECORDS, Math.floor((b.length - at - 2) / RECORD));
      for (let r = at + 2, end = r + count * RECORD; r < end; r += RECORD, a.n++) {
        a.thread[a.n] = b[at];
        a.pos[a.n] = b[r];
        a.seq[a.n] = b[r + 1] >>> 0;
        a.word[a.n] = b[r + 2];
        a.bits[a.n] = b[r + 3];
        a.site[a.n] = b[r + 4];
      }
      at += 2 + b[at + 1] * RECORD;
    }
  }
  return a;
}

/** The byte ranges of a buffer cut into variables (see the file header). */
class Variables {
  private readonly cuts: number[] = [];
  private sorted: Float64Array = new Float64Array(0);
  /** Per variable (index in `sorted`): touched by a recorded data access. */
  accessed: Uint8Array = new Uint8Array(0);

  cut(lo: number, hi: number): void {
    this.cuts.push(lo, hi);
  }
  seal(): void {
    this.sorted = Float64Array.from(new Set(this.cuts)).sort();
    this.accessed = new Uint8Array(this.sorted.length);
  }
  /** Calls `each(offset, index)` for the variables covering bytes [lo, hi) (both cuts). */
  forEach(lo: number, hi: number, each: (offset: number, index: number) => void): void {
    const c = this.sorted;
    let i = 0;
    for (let step = 1 << 30; step > 0; step >>= 1) if (i + step < c.length && c[i + step] <= lo) i += step;
    for (; i < c.length && c[i] < hi; i++) if (c[i] >= lo) each(c[i], i);
  }
}

/** Bytes [lo, hi) of a word's `mask` (contiguous: checkRange masks are). */
function maskRange(mask: number): [number, number] {
  return [31 - Math.clz32(mask & -mask), 32 - Math.clz32(mask)];
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
  const order = new Uint32Array(acc.n);
  for (let i = 0; i < acc.n; i++) order[i] = i;
  order.sort((x, y) => acc.pos[x] - acc.pos[y] || acc.seq[x] - acc.seq[y]);

  // shadow word → (buffer, byte offset of the word)
  const tables = [...meta.buffers].sort((x, y) => x[1] - y[1]);
  const wordBuffer = new Int32Array(acc.n);
  const wordOffset = new Float64Array(acc.n);
  for (let i = 0; i < acc.n; i++) {
    const w = acc.word[i];
    let k = -1;
    for (let lo = 0, hi = tables.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >> 1;
      if (tables[mid][1] <= w) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (k < 0 || w >= tables[k][1] + 2 * tables[k][2])
      throw new Error(`${dir}: shadow word ${w} is in no buffer`);
    wordBuffer[i] = tables[k][0];
    wordOffset[i] = ((w - tables[k][1]) >> 1) * 8;
  }

  const vars = new Map<number, Variables>();
  const varsOf = (id: number): Variables => {
    let v = vars.get(id);
    if (v === undefined) {
      v = new Variables();
      vars.set(id, v);
    }
    return v;
  };
  for (let i = 0; i < acc.n; i++) {
    const [lo, hi] = maskRange(acc.bits[i] & 0xff);
    varsOf(wordBuffer[i]).cut(wordOffset[i] + lo, wordOffset[i] + hi);
  }
  /** An atomic cell's buffer id and byte range. */
  const atomicRange = (c: number): [number, number, number] => {
    const b = list[c + 3] >>> 0;
    const off = Math.floor(b / 4);
    return [list[c + 2] & ((1 << TAG_SHIFT) - 1), off, off + (1 << (b & 3))];
  };
  for (let c = 0; c < list.length; c += CELL) {
    if (list[c] === Cell.AtomicWrite || list[c] === Cell.AtomicRmw) {
      const [id, lo, hi] = atomicRange(c);
      varsOf(id).cut(lo, hi);
    }
  }
  for (const v of vars.values()) v.seal();
  for (let i = 0; i < acc.n; i++) {
    const v = vars.get(wordBuffer[i])!;
    const [lo, hi] = maskRange(acc.bits[i] & 0xff);
    v.forEach(wordOffset[i] + lo, wordOffset[i] + hi, (_, k) => {
      v.accessed[k] = 1;
    });
  }

  const loc = (site: number): string => (meta.strings[site] ?? '').replace(/[|\r\n]/g, '_');
  const thread = (t: number): string => `${prefix}T${t}`;
  const object = (c: number): string => prefix + Shadow.keyName(objectKey(list[c + 2], list[c + 3]));
  let next = 0;
  let lastSeq = -1;
  const accessesBefore = (cell: number): void => {
    for (; next < acc.n && acc.pos[order[next]] <= cell; next++) {
      const i = order[next];
      if (acc.seq[i] === lastSeq) continue; // written twice (see Recorder.dump)
      lastSeq = acc.seq[i];
      const [lo, hi] = maskRange(acc.bits[i] & 0xff);
      const op = acc.bits[i] & WRITE ? 'w' : 'r';
      const id = wordBuffer[i];
      vars.get(id)!.forEach(wordOffset[i] + lo, wordOffset[i] + hi, (off) => {
        out.event(thread(acc.thread[i]), `${op}(${prefix}sab#${id}+${off})`, loc(acc.site[i]));
      });
    }
  };
  const SYNC: Record<number, string> = {
    [Cell.Acquire]: 'acq',
    [Cell.Release]: 'rel',
    [Cell.AtomicRead]: 'ar',
    [Cell.AtomicWrite]: 'aw',
    [Cell.AtomicRmw]: 'armw',
    [Cell.Send]: 'vw',
    [Cell.Receive]: 'vr',
    [Cell.Publish]: 'vw',
    [Cell.Subscribe]: 'vr',
  };
  for (let p = 0; p < cells; p++) {
    accessesBefore(p);
    const c = p * CELL;
    const kind = list[c];
    const t = thread(list[c + 1]);
    if (kind === Cell.Fork || kind === Cell.Join) {
      out.event(t, `${kind === Cell.Fork ? 'fork' : 'join'}(${thread(list[c + 3])})`, '');
      continue;
    }
    const op = SYNC[kind];
    if (op === undefined) throw new Error(`${dir}: cell ${p} has an unknown kind ${kind}`);
    out.event(t, `${op}(${object(c)})`, '');
    if (kind === Cell.AtomicWrite || kind === Cell.AtomicRmw) {
      // an atomic write replaces every access record of its bytes (live `Shadow.record`): reset them
      const [id, lo, hi] = atomicRange(c);
      const v = vars.get(id)!;
      v.forEach(lo, hi, (off, k) => {
        if (v.accessed[k]) out.event(t, `alloc(${prefix}sab#${id}+${off})`, '');
      });
    }
  }
  accessesBefore(Number.POSITIVE_INFINITY);
}
