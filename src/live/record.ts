/**
 * Recording a live run (`goldilocks run --record FILE`; design in docs/RUNTIME.md "Recording"): what each process
 * leaves in its recording directory (`GOLDILOCKS_RECORD/<pid>/`), from which `../cli/record.ts` writes the trace.
 *
 * - The synchronization event list is already the run's synchronization, in an order consistent with
 *   happens-before; the main thread writes it at exit (`list.bin`: the cells as Int32 in list order, `./memory/state.ts` {@link CELL};
 *   a recorded run collects none of them, `./memory/sync-list.ts`),
 *   with `meta.json`: the buffers' word tables in the shadow heap and the string heap (sites).
 * - Data accesses: {@link Recorder.log} runs under the word's check lock for every word `Shadow.access` checks and
 *   appends a record — [`pos` (the list's length then), `seq` (a process-wide sequence number, taken under the
 *   word lock, so accesses to one word are numbered in check order), shadow word, `mask | flags` (| {@link VALUE}),
 *   site string id, and the word's 8 bytes as two Int32 (`lo` bytes 0-3, `hi` bytes 4-7, little-endian), of which
 *   those of the mask are the bytes read or written when VALUE is set: element accesses, performed under the word
 *   lock by `./locked.ts`] — to its thread's chunk. A chunk lives in the shared `record` buffer, so that the main thread can write out
 *   the records of a worker terminated mid-run; a thread appends a full chunk to its file `t<id>.log` itself. A
 *   file is a sequence of blocks [thread, count, count records].
 * - An atomic operation's data access is logged the same way (by `./intercept/atomics.ts`, under its word lock and the
 *   list lock, before the operation's cells) with its ATOMIC flag: the trace writes it as `ard`/`awd`.
 *
 * The order of the trace: an access checked when the list had `pos` cells comes after cell `pos - 1` and before
 * cell `pos`; accesses between two cells in `seq` order. This keeps each thread's program order, the list's order
 * and the check order of accesses to one word, which is all that the verdicts depend on.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benignRanges } from './excuses.js';
import { CELL, CTL, ensureBytes, rawAtomics, type StateViews } from './memory/state.js';
import { getString } from './memory/strings.js';
import { listCells } from './memory/sync-list.js';
import { printErr } from './races.js';

/** Int32 words of one recorded access. */
export const RECORD = 7;
/**
 * Flag of a record's `bits` (beside the byte mask, WRITE and ATOMIC): its last two words hold the bytes the access
 * read or wrote (see {@link Recorder.log}).
 */
export const VALUE = 1 << 12;
/** Records per chunk: a thread writes its chunk to its file when it is full. */
export const CHUNK_RECORDS = 8192;
/** Int32 words of a chunk: thread, count, then the records. */
const CHUNK = 2 + RECORD * CHUNK_RECORDS;

/** `meta.json` of a recorded process. */
export interface RecordMeta {
  /** The program (`process.argv`), for the trace's header. */
  program: string;
  /** Cells in `list.bin`. */
  listEnd: number;
  /** Per buffer: [id, address of its first word (`./shadow/table.ts`: word w is `base + w`), words]. */
  buffers: [number, number, number][];
  /** The string heap by id (sites are `file:line:column`). */
  strings: string[];
  /**
   * The byte ranges annotated benign (`benignRace`, `./excuses.ts`) as [buffer id, first byte, end byte]: their
   * accesses are left out of the trace, as their races are out of the run's report.
   */
  benign?: [number, number, number][];
}

/** One thread's recorder (see the file header). */
export class Recorder {
  private chunk: Int32Array | undefined;
  private readonly file: string;
  private failed = false;

  /**
   * @param dir this process's recording directory (created if missing).
   * @throws Error when the state was created without its `record` buffer.
   */
  constructor(
    private readonly s: StateViews,
    private readonly t: number,
    private readonly dir: string,
  ) {
    if (s.state.record === undefined)
      throw new Error('goldilocks: recording needs the state of a recorded run');
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, `t${t}.log`);
  }

  /**
   * `Shadow.onAccess`: appends the record of a checked word access, plain or atomic (word lock held); with
   * {@link VALUE} in `bits`, `lo` and `hi` hold the word's bytes (see the file header).
   */
  readonly log = (word: number, bits: number, site: number, lo = 0, hi = 0): void => {
    const c = this.chunk ?? this.allocate();
    const n = c[1];
    const at = 2 + n * RECORD;
    const ctl = this.s.ctl;
    c[at] = rawAtomics.load(ctl, CTL.listEnd);
    c[at + 1] = rawAtomics.add(ctl, CTL.recordSeq, 1);
    c[at + 2] = word;
    c[at + 3] = bits;
    c[at + 4] = site;
    c[at + 5] = lo;
    c[at + 6] = hi;
    rawAtomics.store(c, 1, n + 1);
    if (n + 1 === CHUNK_RECORDS) this.flush();
  };

  private allocate(): Int32Array {
    const buffer = this.s.state.record!;
    const k = rawAtomics.add(this.s.ctl, CTL.recordChunks, 1);
    ensureBytes(buffer, (k + 1) * CHUNK * 4);
    const c = new Int32Array(buffer, k * CHUNK * 4, CHUNK);
    c[0] = this.t;
    rawAtomics.store(c, 1, 0);
    this.chunk = c;
    return c;
  }

  /**
   * Appends this thread's pending records to its file. A file-system error (a full disk) must not reach the
   * program through one of its accesses: it is printed once and the records are dropped.
   */
  flush(): void {
    const c = this.chunk;
    if (c === undefined || c[1] === 0) return;
    try {
      appendBlock(this.file, c);
    } catch (e) {
      if (!this.failed) printErr(`goldilocks: --record: accesses lost, the recording is incomplete: ${e}\n`);
      this.failed = true;
    }
    rawAtomics.store(c, 1, 0);
  }

  /**
   * Main thread, at exit: writes the list, `meta.json` and the pending records of every thread (those of a
   * worker terminated mid-run included) to `tail.log`. A record a still-running worker appends meanwhile may be
   * missed or written twice (the trace writer drops duplicates by `seq`).
   */
  dump(program: string): void {
    const s = this.s;
    const buffer = s.state.record!;
    const tail = path.join(this.dir, 'tail.log');
    const chunks = rawAtomics.load(s.ctl, CTL.recordChunks);
    for (let k = 0; k < chunks && (k + 1) * CHUNK * 4 <= buffer.byteLength; k++) {
      const c = new Int32Array(buffer, k * CHUNK * 4, CHUNK);
      if (rawAtomics.load(c, 1) > 0) appendBlock(tail, c);
    }
    const listEnd = rawAtomics.load(s.ctl, CTL.listEnd);
    // a recorded run collects no cell (`CTL.gcAt`, ./memory/sync-list.ts): the list is whole, in its chunks
    const cells = listCells(s, 0, listEnd);
    writeFileSync(path.join(this.dir, 'list.bin'), new Uint8Array(cells.buffer, 0, listEnd * CELL * 4));
    const buffers: [number, number, number][] = [];
    for (let id = 1, n = rawAtomics.load(s.ctl, CTL.nextBuffer); id <= n; id++) {
      if (rawAtomics.load(s.buffers, 3 * id + 2) !== 0)
        buffers.push([id, s.buffers[3 * id], s.buffers[3 * id + 1]]);
    }
    const strings: string[] = [];
    for (let i = 0, n = rawAtomics.load(s.ctl, CTL.strCount); i < n; i++) strings.push(getString(s, i));
    const meta: RecordMeta = { program, listEnd, buffers, strings, benign: benignRanges(s) };
    writeFileSync(path.join(this.dir, 'meta.json'), JSON.stringify(meta));
  }
}

/** Appends a block of chunk `c`'s records to `file`: [thread, count] then the records. */
function appendBlock(file: string, c: Int32Array): void {
  const header = new Int32Array([c[0], rawAtomics.load(c, 1)]);
  appendFileSync(file, new Uint8Array(header.buffer));
  appendFileSync(file, new Uint8Array(c.buffer, c.byteOffset + 8, header[1] * RECORD * 4));
}
