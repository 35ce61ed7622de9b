/**
 * Generator of large, realistic, feasible traces in the extended format (`THREAD|OP|LOC`, one event per
 * line), for benchmarking. Streams to a file (gzip if it ends in `.gz`) through a fixed 4 MiB buffer written
 * with `fs.writeSync`, so memory does not grow with the number of events.
 *
 *   node --import tsx bench/generate.ts --events 5000000 --threads 8 --vars 10000 --locks 100 \
 *     --volatiles 10 --seed 1 --out bench/out/gen-5M.trace
 *
 * Model. The main thread T0 initialises the read-only shared data (at most 1% of the events), forks the
 * workers T1..Tn (`--threads` is the number of workers), and joins them all at the end. The workers' events
 * are interleaved by a seeded scheduler (bursts of 1..40 events of one thread). Variables `o<k>.f<j>` are
 * the fields (1..6) of objects; each object belongs to one class of data:
 *  - lock-protected (~60% of the objects): each object is guarded by one lock, and accessed only inside a
 *    critical section of that lock (short: 1..8 accesses, sometimes nested up to 3 locks deep);
 *  - thread-local (~22%): per-worker ranges, accessed only by their owner;
 *  - read-only shared (~16%): written by T0 before the forks, only read by the workers;
 *  - racy (~2%): accessed by every worker without synchronisation (the races a detector should report);
 *  - published (one object per volatile): handed from thread to thread through the volatile: the owner
 *    accesses the fields, then `vw(v)` publishes them; the next thread to `vr(v)` after that takes them over.
 * The mix is like FastTrack's measurements of Java programs: ~82% reads, ~15% writes, ~3% synchronisation.
 * Locks are never acquired while another thread holds them (the generator keeps each lock's holder), and are
 * released in LIFO order; every lock is released before the joins. Locations `L<n>` are program points: a
 * few per (object class, field, read/write), one per lock class for acq and rel, per volatile for vr, vw.
 *
 * The same options and seed give the same trace, byte for byte. `--racy 0` gives a race-free trace (the
 * precise detectors must report nothing on it; Eraser reports the published fields, handed over through
 * volatiles).
 * A `.gz` output is written as a series of gzip members (level 1), about half as fast.
 */
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

export interface GenerateOptions {
  /** Total events, exactly. */
  events: number;
  /** Worker threads (T1..Tn), besides the main thread T0. */
  threads: number;
  /** Shared-memory variables (object fields). */
  vars: number;
  locks: number;
  volatiles: number;
  seed: number;
  /** Probability that a worker's access outside critical sections is to racy data (default 0.004; 0 = a
   * race-free trace). */
  racy?: number;
  /** Probability that a worker's access outside critical sections is to read-only shared data (default 0.27);
   * the rest, after racy and published data, is thread-local. */
  readonly?: number;
  /** Program locations as RAPID's STD format has them, integers (`T1|r(o3.f1)|42`), instead of `L42`. */
  numericLocations?: boolean;
  /** Output file; `.gz` = gzip. Written as `<out>.partial` then renamed. */
  out: string;
}

export interface GenerateStats {
  events: number;
  /** Uncompressed bytes. */
  bytes: number;
  /** Events by operation. */
  ops: Record<string, number>;
  /** Variables by class. */
  classes: Record<string, number>;
  /** Worker accesses (reads and writes by T1..Tn) by class of the variable accessed. */
  accesses: Record<string, number>;
  timeMs: number;
}

// operations
const R = 0;
const W = 1;
const ACQ = 2;
const REL = 3;
const VR = 4;
const VW = 5;
const FORK = 6;
const JOIN = 7;
const OP_NAMES = ['r', 'w', 'acq', 'rel', 'vr', 'vw', 'fork', 'join'];
const NOPS = OP_NAMES.length;

// classes of objects
const LOCKED = 0;
const LOCAL = 1;
const READONLY = 2;
const RACY = 3;
const PUBLISHED = 4;
const CLASS_NAMES = ['lock-protected', 'thread-local', 'read-only', 'racy', 'published'];

/** Fractions of the (non-published) objects by class. */
const FRACTION_RACY = 0.02;
const FRACTION_READONLY = 0.16;
const FRACTION_LOCAL = 0.22;

/** Per step of a worker outside critical sections: start a critical section / do a volatile operation. */
const P_CS = 0.0115;
const P_VOL = 0.003;
/** Per access outside critical sections: racy / published (if the thread owns some) / read-only data. */
const P_RACY = 0.004;
const P_PUBLISHED = 0.06;
const P_READONLY = 0.27;
/** Probability that an access is a read, by class. */
const P_READ_LOCKED = 0.72;
const P_READ_LOCAL = 0.81;
const P_READ_RACY = 0.6;
const P_READ_PUBLISHED = 0.5;
/** Per access inside a critical section: acquire a further (nested) lock. */
const P_NEST = 0.04;
const MAX_NEST = 3;
/** Critical sections hold 1..CS_MAX accesses. */
const CS_MAX = 8;
/** Locality: probability of accessing a field of the object last accessed (same class). */
const P_SAME_OBJECT = 0.45;
/** Scheduler bursts: 1..BURST_MAX events of one thread. */
const BURST_MAX = 40;

// locations
const TYPES = 97;
const MAX_FIELDS = 6;
const SITES = 3;
const LOCK_SITES = 40;

const CHUNK = 1 << 22;
const MAX_LINE = 128;

/** The generator: a seeded state machine writing events into a buffer flushed to a file descriptor. */
class TraceGenerator {
  private prng: number;
  private readonly buf = Buffer.allocUnsafe(CHUNK + MAX_LINE * 4);
  private pos = 0;
  count = 0;
  bytes = 0;
  readonly opCounts = new Float64Array(NOPS);

  // symbols, as bytes
  private readonly prefix: Uint8Array[] = []; // [thread * NOPS + op] = 'T<t>|<op>('
  private readonly varName: Uint8Array[] = [];
  private readonly lockName: Uint8Array[] = [];
  private readonly volName: Uint8Array[] = [];
  private readonly threadName: Uint8Array[] = [];
  private readonly locSuffix: Uint8Array[] = []; // [loc] = ')|L<loc>\n'

  // data
  private readonly objStart: Int32Array;
  private readonly objFields: Int32Array;
  private readonly varObj: Int32Array;
  private readonly objLock: Int32Array;
  private readonly lockVars: Int32Array[];
  private readonly localVars: Int32Array[];
  private readonly readonlyVars: Int32Array;
  private readonly racyVars: Int32Array;
  readonly classCounts = new Float64Array(CLASS_NAMES.length);
  readonly accessCounts = new Float64Array(CLASS_NAMES.length);

  // state
  private readonly holder: Int32Array; // lock -> thread, -1 free
  private readonly depth: Int32Array; // worker -> locks held
  private readonly heldLock: Int32Array; // worker * MAX_NEST + level -> lock
  private readonly heldRem: Int32Array; // worker * MAX_NEST + level -> accesses left
  private totalHeld = 0;
  private readonly pRacy: number;
  private readonly pReadonly: number;
  private readonly volOwner: Int32Array; // volatile -> owning thread, -1 = published (free)
  private readonly owned: number[][]; // worker -> volatiles it owns
  private readonly lastVar: Int32Array; // worker * 5 + class -> last variable

  constructor(
    private readonly o: GenerateOptions,
    private readonly fd: number,
    private readonly gzip: boolean,
  ) {
    this.prng = o.seed >>> 0;
    this.pRacy = o.racy ?? P_RACY;
    this.pReadonly = o.readonly ?? P_READONLY;
    const nt = o.threads + 1;
    const enc = (s: string) => Buffer.from(s, 'latin1');
    for (let t = 0; t < nt; t++) {
      this.threadName.push(enc(`T${t}`));
      for (let op = 0; op < NOPS; op++) this.prefix.push(enc(`T${t}|${OP_NAMES[op]}(`));
    }
    for (let l = 0; l < o.locks; l++) this.lockName.push(enc(`l${l}`));
    for (let v = 0; v < o.volatiles; v++) this.volName.push(enc(`v${v}`));
    const nloc = TYPES * MAX_FIELDS * 2 * SITES + 2 * LOCK_SITES + 2 * o.volatiles + 2;
    for (let l = 0; l < nloc; l++) this.locSuffix.push(enc(`)|${o.numericLocations ? '' : 'L'}${l + 1}\n`));

    // objects of 1..6 fields
    const starts: number[] = [];
    const fields: number[] = [];
    for (let v = 0; v < o.vars; ) {
      const f = Math.min(1 + (this.next() % MAX_FIELDS), o.vars - v);
      starts.push(v);
      fields.push(f);
      v += f;
    }
    const nobj = starts.length;
    this.objStart = Int32Array.from(starts);
    this.objFields = Int32Array.from(fields);
    this.varObj = new Int32Array(o.vars);
    for (let k = 0; k < nobj; k++) {
      for (let j = 0; j < fields[k]; j++) {
        this.varObj[starts[k] + j] = k;
        this.varName.push(enc(`o${k}.f${j}`));
      }
    }

    // classes: objects 0..volatiles-1 are published through volatile k; the others are shuffled and split
    const npub = o.volatiles;
    const rest = nobj - npub;
    if (rest < o.threads + 3)
      throw new Error(`--vars ${o.vars} is too small for ${o.threads} threads and ${o.volatiles} volatiles`);
    const perm = Int32Array.from({ length: rest }, (_, i) => npub + i);
    for (let i = rest - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const x = perm[i];
      perm[i] = perm[j];
      perm[j] = x;
    }
    const nracy = Math.max(1, Math.round(rest * FRACTION_RACY));
    const nro = Math.max(1, Math.round(rest * FRACTION_READONLY));
    const nlocal = Math.max(o.threads, Math.round(rest * FRACTION_LOCAL));
    const cls = new Uint8Array(nobj).fill(LOCKED);
    for (let k = 0; k < npub; k++) cls[k] = PUBLISHED;
    for (let i = 0; i < rest; i++) {
      const k = perm[i];
      if (i < nracy) cls[k] = RACY;
      else if (i < nracy + nro) cls[k] = READONLY;
      else if (i < nracy + nro + nlocal) cls[k] = LOCAL;
    }
    if (o.locks < 1 && cls.includes(LOCKED)) throw new Error('--locks must be at least 1');
    const byLock: number[][] = Array.from({ length: o.locks }, () => []);
    const byThread: number[][] = Array.from({ length: o.threads }, () => []);
    const ro: number[] = [];
    const racy: number[] = [];
    this.objLock = new Int32Array(nobj).fill(-1);
    let nextLocal = 0;
    for (let k = 0; k < nobj; k++) {
      const c = cls[k];
      this.classCounts[c] += fields[k];
      let list: number[];
      if (c === LOCKED) {
        const l = this.int(o.locks);
        this.objLock[k] = l;
        list = byLock[l];
      } else if (c === LOCAL) list = byThread[nextLocal++ % o.threads];
      else if (c === READONLY) list = ro;
      else if (c === RACY) list = racy;
      else continue;
      for (let j = 0; j < fields[k]; j++) list.push(starts[k] + j);
    }
    this.lockVars = byLock.map((a) => Int32Array.from(a));
    this.localVars = byThread.map((a) => Int32Array.from(a));
    this.readonlyVars = Int32Array.from(ro);
    this.racyVars = Int32Array.from(racy);

    this.holder = new Int32Array(Math.max(1, o.locks)).fill(-1);
    this.depth = new Int32Array(o.threads);
    this.heldLock = new Int32Array(o.threads * MAX_NEST);
    this.heldRem = new Int32Array(o.threads * MAX_NEST);
    this.volOwner = new Int32Array(o.volatiles).fill(-1);
    this.owned = Array.from({ length: o.threads }, () => []);
    this.lastVar = new Int32Array(o.threads * 5).fill(-1);
  }

  /** mulberry32: the next uint32. */
  private next(): number {
    this.prng = (this.prng + 0x6d2b79f5) | 0;
    let t = this.prng;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  private rand(): number {
    return this.next() / 4294967296;
  }

  private int(n: number): number {
    return Math.floor(this.rand() * n);
  }

  /** A skewed pick from a list (the first elements are hotter). */
  private skewed(list: Int32Array): number {
    const u = this.rand();
    return list[Math.floor(u * u * list.length)];
  }

  private emit(t: number, op: number, arg: Uint8Array, loc: number): void {
    const b = this.buf;
    let p = this.pos;
    const pre = this.prefix[t * NOPS + op];
    for (let i = 0; i < pre.length; i++) b[p++] = pre[i];
    for (let i = 0; i < arg.length; i++) b[p++] = arg[i];
    const suf = this.locSuffix[loc];
    for (let i = 0; i < suf.length; i++) b[p++] = suf[i];
    this.pos = p;
    this.opCounts[op]++;
    this.count++;
    if (p >= CHUNK) this.flush();
  }

  flush(): void {
    if (this.pos === 0) return;
    const data = this.buf.subarray(0, this.pos);
    this.bytes += this.pos;
    const out = this.gzip ? gzipSync(data, { level: 1 }) : data;
    for (let off = 0; off < out.length; ) off += writeSync(this.fd, out, off, out.length - off);
    this.pos = 0;
  }

  /** Location of an access to v: a few sites per (object class, field, read/write). */
  private accessLoc(v: number, write: number): number {
    const k = this.varObj[v];
    const field = v - this.objStart[k];
    return (((k % TYPES) * MAX_FIELDS + field) * 2 + write) * SITES + this.int(SITES);
  }

  /** A read or write (probability of a read: pRead) of v, of class c, by thread t. */
  private access(t: number, v: number, c: number, pRead: number): void {
    if (t > 0) this.accessCounts[c]++;
    const write = this.rand() < pRead ? 0 : 1;
    this.emit(t, write === 0 ? R : W, this.varName[v], this.accessLoc(v, write));
  }

  /** A variable of `list` (class c), often a field of the worker's last object of that class. */
  private pick(w: number, c: number, list: Int32Array, lock = -1): number {
    const last = this.lastVar[w * 5 + c];
    let v: number;
    if (last >= 0 && this.rand() < P_SAME_OBJECT && (lock < 0 || this.objLock[this.varObj[last]] === lock)) {
      const k = this.varObj[last];
      v = this.objStart[k] + this.int(this.objFields[k]);
    } else v = this.skewed(list);
    this.lastVar[w * 5 + c] = v;
    return v;
  }

  private get locksBase(): number {
    return TYPES * MAX_FIELDS * 2 * SITES;
  }

  /** Acquires a free lock (a few tries, hot locks first). @returns false if none was free. */
  private tryAcquire(t: number, w: number): boolean {
    for (let tries = 0; tries < 3; tries++) {
      const l = Math.floor(this.rand() ** 2 * this.o.locks);
      if (this.holder[l] !== -1) continue;
      this.holder[l] = t;
      const slot = w * MAX_NEST + this.depth[w]++;
      this.heldLock[slot] = l;
      this.heldRem[slot] = 1 + this.int(CS_MAX);
      this.totalHeld++;
      this.emit(t, ACQ, this.lockName[l], this.locksBase + (l % LOCK_SITES));
      return true;
    }
    return false;
  }

  private release(t: number, w: number): void {
    const l = this.heldLock[w * MAX_NEST + --this.depth[w]];
    this.holder[l] = -1;
    this.totalHeld--;
    this.emit(t, REL, this.lockName[l], this.locksBase + LOCK_SITES + (l % LOCK_SITES));
  }

  private volatileOp(t: number, w: number): void {
    const mine = this.owned[w];
    const volBase = this.locksBase + 2 * LOCK_SITES;
    if (mine.length > 0 && this.rand() < 0.5) {
      // publish one of mine
      const i = this.int(mine.length);
      const v = mine[i];
      mine[i] = mine[mine.length - 1];
      mine.pop();
      this.volOwner[v] = -1;
      this.emit(t, VW, this.volName[v], volBase + 2 * v + 1);
      return;
    }
    const v = this.int(this.o.volatiles);
    if (this.volOwner[v] === t) {
      const i = mine.indexOf(v);
      mine[i] = mine[mine.length - 1];
      mine.pop();
      this.volOwner[v] = -1;
      this.emit(t, VW, this.volName[v], volBase + 2 * v + 1);
      return;
    }
    if (this.volOwner[v] === -1) {
      // take over what was published (or nothing yet)
      this.volOwner[v] = t;
      mine.push(v);
    }
    // else: just polling a flag someone else owns
    this.emit(t, VR, this.volName[v], volBase + 2 * v);
  }

  /** One event of worker t, with `budget` = whether starting a critical section still fits. */
  private step(t: number, budget: boolean): void {
    const w = t - 1;
    const d = this.depth[w];
    if (d > 0) {
      const top = w * MAX_NEST + d - 1;
      if (this.heldRem[top] === 0) {
        this.release(t, w);
        return;
      }
      if (d < MAX_NEST && budget && this.rand() < P_NEST && this.tryAcquire(t, w)) return;
      this.heldRem[top]--;
      const level = d > 1 && this.rand() < 0.25 ? w * MAX_NEST + this.int(d) : top;
      const l = this.heldLock[level];
      const list = this.lockVars[l];
      if (list.length > 0) this.access(t, this.pick(w, LOCKED, list, l), LOCKED, P_READ_LOCKED);
      else this.access(t, this.pick(w, LOCAL, this.localVars[w]), LOCAL, P_READ_LOCAL);
      return;
    }
    const u = this.rand();
    if (u < P_CS) {
      if (budget && this.o.locks > 0 && this.tryAcquire(t, w)) return;
    } else if (u < P_CS + P_VOL) {
      if (this.o.volatiles > 0) {
        this.volatileOp(t, w);
        return;
      }
    }
    const c = this.rand();
    const mine = this.owned[w];
    const pRacy = this.pRacy;
    if (c < pRacy) this.access(t, this.pick(w, RACY, this.racyVars), RACY, P_READ_RACY);
    else if (c < pRacy + P_PUBLISHED && mine.length > 0) {
      const k = mine[this.int(mine.length)]; // object k is published through volatile k
      this.access(t, this.objStart[k] + this.int(this.objFields[k]), PUBLISHED, P_READ_PUBLISHED);
    } else if (c < pRacy + P_PUBLISHED + this.pReadonly)
      this.access(t, this.pick(w, READONLY, this.readonlyVars), READONLY, 1);
    else this.access(t, this.pick(w, LOCAL, this.localVars[w]), LOCAL, P_READ_LOCAL);
  }

  run(): void {
    const { events: n, threads: nw } = this.o;
    if (n < 2 * nw) throw new Error(`--events ${n} is too few for ${nw} threads (fork and join each)`);
    const initLoc = this.locsBase();
    // T0: initialise (part of) the read-only data, fork the workers
    const init = Math.min(this.readonlyVars.length, Math.floor((n - 2 * nw) / 100));
    for (let i = 0; i < init; i++) {
      const v = this.readonlyVars[i];
      this.emit(0, W, this.varName[v], this.accessLoc(v, 1));
    }
    for (let t = 1; t <= nw; t++) this.emit(0, FORK, this.threadName[t], initLoc);
    // workers, interleaved; stop when the releases still due and the joins make exactly n events
    let t = 1;
    let burst = 0;
    while (this.count + this.totalHeld + nw < n) {
      if (burst === 0) {
        t = 1 + this.int(nw);
        burst = 1 + this.int(BURST_MAX);
      }
      burst--;
      this.step(t, this.count + this.totalHeld + nw + 2 <= n);
    }
    for (let w = 0; w < nw; w++) while (this.depth[w] > 0) this.release(w + 1, w);
    for (let u = 1; u <= nw; u++) this.emit(0, JOIN, this.threadName[u], initLoc + 1);
    this.flush();
    if (this.count !== n) throw new Error(`internal error: generated ${this.count} events, not ${n}`);
  }

  private locsBase(): number {
    return this.locksBase + 2 * LOCK_SITES + 2 * this.o.volatiles;
  }
}

/** Writes a trace; see the module comment. */
export function generate(o: GenerateOptions): GenerateStats {
  const t0 = performance.now();
  const partial = `${o.out}.partial`;
  const fd = openSync(partial, 'w');
  let g: TraceGenerator;
  try {
    g = new TraceGenerator(o, fd, o.out.endsWith('.gz'));
    g.run();
  } finally {
    closeSync(fd);
  }
  renameSync(partial, o.out);
  const ops: Record<string, number> = {};
  OP_NAMES.forEach((name, i) => {
    ops[name] = g.opCounts[i];
  });
  const classes: Record<string, number> = {};
  CLASS_NAMES.forEach((name, i) => {
    classes[name] = g.classCounts[i];
  });
  const accesses: Record<string, number> = {};
  CLASS_NAMES.forEach((name, i) => {
    accesses[name] = g.accessCounts[i];
  });
  return { events: g.count, bytes: g.bytes, ops, classes, accesses, timeMs: performance.now() - t0 };
}

/**
 * `--preset realistic`: issue 24's realistic trace, in RAPID's STD subset (no volatiles, integer locations):
 * 8 worker threads, 10,000 variables, 100 locks, about 80% of the workers' accesses to thread-local data,
 * shared variables accessed under their lock or read-only, rare races (racy data: 0.4% of the accesses outside
 * critical sections).
 */
export const REALISTIC = {
  threads: '8',
  vars: '10000',
  locks: '100',
  volatiles: '0',
  racy: String(P_RACY),
  readonly: '0.08',
  'numeric-locations': true,
};
const PRESET_HELP =
  "issue 24's realistic STD trace: --threads 8 --vars 10000 --locks 100 --volatiles 0 --racy 0.004 " +
  '--readonly 0.08 --numeric-locations (RAPID reads it; ~80% of the accesses thread-local)';

/** Parses a count: 5000000, 5e6, 5_000_000, 200k, 5M, 1G. */
export function parseCount(s: string, what = 'count'): number {
  const m = /^(\d[\d_]*(?:\.\d+)?(?:e\d+)?)([kmg]?)$/i.exec(s.trim());
  const mult: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9 };
  const n = m ? Number(m[1].replaceAll('_', '')) * mult[m[2].toLowerCase()] : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`invalid ${what} '${s}'`);
  return n;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '1000000' },
      threads: { type: 'string', default: '8' },
      vars: { type: 'string', default: '10000' },
      locks: { type: 'string', default: '100' },
      volatiles: { type: 'string', default: '10' },
      seed: { type: 'string', default: '1' },
      racy: { type: 'string', default: String(P_RACY) },
      readonly: { type: 'string', default: String(P_READONLY) },
      'numeric-locations': { type: 'boolean', default: false },
      preset: { type: 'string' },
      out: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || values.out === undefined) {
    process.stderr.write(
      'usage: node --import tsx bench/generate.ts --events N [--threads 8] [--vars 10000] [--locks 100]\n' +
        '         [--volatiles 10] [--seed 1] [--racy 0.004] [--readonly 0.27] [--numeric-locations]\n' +
        '         [--preset realistic] [--quiet] --out FILE[.gz]\n' +
        `  --preset realistic: ${PRESET_HELP}\n`,
    );
    process.exit(values.help ? 0 : 2);
  }
  if (values.preset !== undefined) {
    if (values.preset !== 'realistic')
      throw new Error(`unknown --preset '${values.preset}' (expected realistic)`);
    // the preset's values, except where an option is given
    for (const [k, v] of Object.entries(REALISTIC))
      if (!process.argv.some((a) => a === `--${k}` || a.startsWith(`--${k}=`)))
        Object.assign(values, { [k]: v });
  }
  const o: GenerateOptions = {
    events: parseCount(values.events, '--events'),
    threads: parseCount(values.threads, '--threads'),
    vars: parseCount(values.vars, '--vars'),
    locks: parseCount(values.locks, '--locks'),
    volatiles: parseCount(values.volatiles, '--volatiles'),
    seed: parseCount(values.seed, '--seed'),
    racy: Number(values.racy),
    readonly: Number(values.readonly),
    numericLocations: values['numeric-locations'],
    out: values.out,
  };
  if (!(o.racy! >= 0 && o.racy! <= 1)) throw new Error(`invalid --racy '${values.racy}' (a probability)`);
  if (!(o.readonly! >= 0 && o.racy! + P_PUBLISHED + o.readonly! <= 1))
    throw new Error(
      `invalid --readonly '${values.readonly}' (a probability, at most ${1 - P_PUBLISHED} - --racy)`,
    );
  if (o.threads < 1) throw new Error('--threads must be at least 1');
  const s = generate(o);
  if (!values.quiet) {
    const pct = (x: number) => `${((100 * x) / s.events).toFixed(2)}%`;
    const sync = s.ops.acq + s.ops.rel + s.ops.vr + s.ops.vw + s.ops.fork + s.ops.join;
    process.stderr.write(
      `${o.out}: ${s.events} events, ${(s.bytes / 2 ** 20).toFixed(1)} MiB, ` +
        `${(s.timeMs / 1000).toFixed(2)} s ` +
        `(${(s.events / s.timeMs / 1000).toFixed(2)} M events/s)\n` +
        `  reads ${pct(s.ops.r)}, writes ${pct(s.ops.w)}, sync ${pct(sync)} ` +
        `(${Object.entries(s.ops)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')})\n` +
        `  variables: ${Object.entries(s.classes)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}\n` +
        `  workers' accesses: ${Object.entries(s.accesses)
          .map(([k, v]) => `${k} ${((100 * v) / (s.ops.r + s.ops.w)).toFixed(1)}%`)
          .join(', ')}\n`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main();
  } catch (e) {
    process.stderr.write(`generate: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
