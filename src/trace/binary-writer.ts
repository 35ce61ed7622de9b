import { COMMIT, type EventBatch } from '../model/events.js';
import { growAtLeast, type Interner } from '../model/interner.js';
import type { Symbols } from '../model/symbols.js';
import {
  BINARY_VERSION,
  NS_COUNT,
  NS_LOCATION,
  NS_MARKER,
  NS_THREAD,
  NS_VARIABLE,
  namespaceTables,
  SECOND_NS,
  TAG_DEFINE,
  TAG_OPTIONAL,
  TARGET_NS,
} from './binary.js';
import { BINARY_MAGIC } from './reading.js';
import { writeAll } from './write-all.js';

/** Bytes buffered before a write to the file. */
const CHUNK_BYTES = 1 << 20;
/** Longest varint (a value below 2^31). */
const VARINT_MAX = 5;

/**
 * Writer of the binary format (docs/FORMATS.md, "Binary format"; the grammar is in trace/binary.ts): events
 * of batches whose ids refer to `symbols`. A name is defined in the file just before the first event that
 * uses it, with the next file-local id of its namespace. Output goes to file descriptor `fd` with
 * `writeAll` in chunks of about 1 MiB; call {@link end} to write the rest. Memory grows with the number of
 * names, not of events.
 * @throws Error (EPIPE, ENOSPC, ...) from `fs.writeSync` (see {@link writeAll}).
 */
export class BinaryWriter {
  private out: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private n = 0;
  private readonly tables: Interner[];
  /** Per namespace: file id + 1 of each Symbols id (0 = not defined yet). */
  private readonly fileIds: Int32Array[] = [];
  private readonly defined = new Int32Array(NS_COUNT);
  /** Bytes written so far. */
  written = 0;

  constructor(
    symbols: Symbols,
    private readonly fd: number,
  ) {
    this.tables = namespaceTables(symbols);
    for (let ns = 0; ns < NS_COUNT; ns++) this.fileIds.push(new Int32Array(64));
    BINARY_MAGIC.copy(this.out, 0);
    this.out[BINARY_MAGIC.length] = BINARY_VERSION;
    this.n = BINARY_MAGIC.length + 1;
  }

  /** Appends the events of a batch. */
  write(batch: EventBatch): void {
    for (let i = 0; i < batch.length; i++) {
      const kind = batch.kind[i];
      const thread = this.ref(NS_THREAD, batch.thread[i]);
      const loc = this.ref(NS_LOCATION, batch.loc[i]);
      const x = batch.target[i];
      if (kind === COMMIT) {
        this.commit(thread, loc, batch.commitPool, x);
        continue;
      }
      const ns = TARGET_NS[kind];
      const value = batch.value[i];
      // r/w's value, or ard/awd's atomic location
      const hasValue = ns === NS_VARIABLE && value >= 0;
      const target = x < 0 && ns === NS_MARKER ? -1 : this.ref(ns, x);
      const v = hasValue ? this.ref(SECOND_NS[kind], value) : -1;
      this.room(1 + 4 * VARINT_MAX);
      this.out[this.n++] = hasValue || (ns === NS_MARKER && target >= 0) ? kind | TAG_OPTIONAL : kind;
      this.varint(thread);
      this.varint(loc);
      if (target >= 0) this.varint(target);
      if (v >= 0) this.varint(v);
    }
  }

  /** Writes what is buffered. */
  end(): void {
    this.flush();
  }

  /** commit(R, W) at `pool[off]`: `[nReads, nWrites, reads..., writes...]`. */
  private commit(thread: number, loc: number, pool: Int32Array, off: number): void {
    const nr = pool[off];
    const nw = pool[off + 1];
    const ids = off + 2;
    // define every name first: a definition is a record of its own
    for (let j = 0; j < nr + nw; j++) this.ref(NS_VARIABLE, pool[ids + j]);
    this.room((5 + nr + nw) * VARINT_MAX);
    this.out[this.n++] = COMMIT;
    this.varint(thread);
    this.varint(loc);
    this.varint(nr);
    for (let j = 0; j < nr; j++) this.varint(this.fileIds[NS_VARIABLE][pool[ids + j]] - 1);
    this.varint(nw);
    for (let j = nr; j < nr + nw; j++) this.varint(this.fileIds[NS_VARIABLE][pool[ids + j]] - 1);
  }

  /** The file id of Symbols id `id` of namespace `ns`, defining it on first use. */
  private ref(ns: number, id: number): number {
    if (id >= this.fileIds[ns].length) this.fileIds[ns] = growAtLeast(this.fileIds[ns], id + 1);
    const f = this.fileIds[ns][id];
    if (f !== 0) return f - 1;
    const name = this.tables[ns].bytes(id);
    this.room(1 + VARINT_MAX + name.length);
    this.out[this.n++] = TAG_DEFINE | ns;
    this.varint(name.length);
    this.out.set(name, this.n);
    this.n += name.length;
    const fileId = this.defined[ns]++;
    this.fileIds[ns][id] = fileId + 1;
    return fileId;
  }

  private varint(x: number): void {
    const out = this.out;
    let n = this.n;
    while (x >= 0x80) {
      out[n++] = (x & 0x7f) | 0x80;
      x >>>= 7;
    }
    out[n++] = x;
    this.n = n;
  }

  /** Makes room for `bytes` more bytes in the buffer. */
  private room(bytes: number): void {
    if (this.n + bytes <= this.out.length) return;
    this.flush();
    if (bytes > this.out.length) this.out = Buffer.allocUnsafe(bytes);
  }

  private flush(): void {
    writeAll(this.fd, this.out.subarray(0, this.n));
    this.written += this.n;
    this.n = 0;
  }
}
