/**
 * Interning of names (threads, variables, locks, volatiles, source locations...) to dense ids 0..size-1.
 *
 * Names are interned straight from the bytes of the input buffer: the parser never creates a string per
 * event, only once per distinct name (lazily, when a report asks for it). The table is open addressing
 * over FNV-1a hashes; names are stored in one growing byte arena. This is the engine's symbol table
 * (DESIGN.md: "ids (thread, variable, lock, volatile), interning").
 */
export class Interner {
  private arena: Uint8Array = new Uint8Array(1 << 12);
  private arenaLength = 0;
  /** Per id: arena offset at `2 * id`, byte length at `2 * id + 1`. */
  private spans: Int32Array = new Int32Array(128);
  /** Per id: its last (up to) 8 bytes as two ints (see {@link internTail}) at `2 * id` and `2 * id + 1`. */
  private tails: Int32Array = new Int32Array(128);
  /**
   * Open-addressing table of slot pairs: the name's hash at `2 * slot`, id+1 at `2 * slot + 1` (0 = empty).
   * Hash and id side by side: a probe touches one cache line, and mismatches are rejected without it.
   */
  private table: Int32Array = new Int32Array(256);
  private strings: (string | undefined)[] = [];
  /** Number of distinct names interned so far; ids are 0..size-1. */
  size = 0;

  /**
   * Interns the UTF-8 bytes `buf[start, end)`.
   * @returns the id of the name (a new id, equal to the previous `size`, when the name is new).
   */
  internBytes(buf: Uint8Array, start: number, end: number): number {
    return this.internHashed(buf, start, end, hashBytes(buf, start, end));
  }

  /**
   * As {@link internBytes}, with `h` the FNV-1a hash of the bytes already computed by the caller (a parser
   * that hashes while it scans, with {@link FNV_OFFSET} and {@link FNV_PRIME}).
   */
  internHashed(buf: Uint8Array, start: number, end: number, h: number): number {
    return this.internTail(buf, start, end, h, tailWord(buf, start, end, 0), tailWord(buf, start, end, 1));
  }

  /**
   * As {@link internHashed}, with also the name's last (up to) 8 bytes as two ints, as a scanner gets them by
   * shifting each byte b in: `w1 = (w1 << 8) | (w0 >>> 24); w0 = (w0 << 8) | b` from w0 = w1 = 0. A name
   * of at most 8 bytes is then found by comparing hash, length and these two words — no byte loop (about
   * a fifth of the STD parser's instructions went into comparing bytes); a longer one compares its other
   * bytes too.
   */
  internTail(buf: Uint8Array, start: number, end: number, h: number, w0: number, w1: number): number {
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    const len = end - start;
    const arena = this.arena;
    const spans = this.spans;
    const tails = this.tails;
    let slot = h & mask;
    for (;;) {
      const e = table[2 * slot + 1];
      if (e === 0) break;
      if (
        table[2 * slot] === h &&
        spans[2 * e - 1] === len &&
        tails[2 * e - 2] === w0 &&
        tails[2 * e - 1] === w1
      ) {
        if (len <= 8) return e - 1;
        // The last 8 bytes are equal: compare the others.
        let a = spans[2 * e - 2];
        let i = start;
        const head = end - 8;
        while (i < head && arena[a] === buf[i]) {
          a++;
          i++;
        }
        if (i === head) return e - 1;
      }
      slot = (slot + 1) & mask;
    }
    return this.add(buf, start, end, h, slot);
  }

  /** Interns a JavaScript string (encoded as UTF-8). */
  intern(name: string): number {
    const bytes = Buffer.from(name, 'utf8');
    const id = this.internBytes(bytes, 0, bytes.length);
    this.strings[id] = name;
    return id;
  }

  /** Looks a name up without interning it. @returns its id, or -1. */
  lookup(name: string): number {
    const bytes = Buffer.from(name, 'utf8');
    const h = hashBytes(bytes, 0, bytes.length);
    const mask = (this.table.length >> 1) - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = this.table[2 * slot + 1];
      if (e === 0) return -1;
      if (this.table[2 * slot] === h && this.name(e - 1) === name) return e - 1;
    }
  }

  /** The name of `id` as a string (decoded once, then cached). */
  name(id: number): string {
    let s = this.strings[id];
    if (s === undefined) {
      const off = this.spans[2 * id];
      s = Buffer.from(this.arena.buffer, this.arena.byteOffset + off, this.spans[2 * id + 1]).toString(
        'utf8',
      );
      this.strings[id] = s;
    }
    return s;
  }

  /** The UTF-8 bytes of `id` (a view into the arena, valid until the next intern). */
  bytes(id: number): Uint8Array {
    const off = this.spans[2 * id];
    return this.arena.subarray(off, off + this.spans[2 * id + 1]);
  }

  private add(buf: Uint8Array, start: number, end: number, h: number, slot: number): number {
    const id = this.size++;
    const len = end - start;
    if (this.arenaLength + len > this.arena.length) {
      let cap = this.arena.length * 2;
      while (cap < this.arenaLength + len) cap *= 2;
      const a = new Uint8Array(cap);
      a.set(this.arena.subarray(0, this.arenaLength));
      this.arena = a;
    }
    this.arena.set(buf.subarray(start, end), this.arenaLength);
    if (2 * id >= this.spans.length) this.spans = grow(this.spans, this.spans.length * 2);
    this.spans[2 * id] = this.arenaLength;
    this.spans[2 * id + 1] = len;
    if (2 * id >= this.tails.length) this.tails = grow(this.tails, this.tails.length * 2);
    this.tails[2 * id] = tailWord(buf, start, end, 0);
    this.tails[2 * id + 1] = tailWord(buf, start, end, 1);
    this.arenaLength += len;
    this.table[2 * slot] = h;
    this.table[2 * slot + 1] = id + 1;
    if (this.size * 4 > this.table.length) this.rehash();
    return id;
  }

  /** Doubles the table (kept at most half full). */
  private rehash(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    const mask = (table.length >> 1) - 1;
    for (let j = 0; j < old.length; j += 2) {
      if (old[j + 1] === 0) continue;
      let slot = old[j] & mask;
      while (table[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      table[2 * slot] = old[j];
      table[2 * slot + 1] = old[j + 1];
    }
    this.table = table;
  }
}

/**
 * Word `k` of the last 8 bytes of `buf[start, end)` as {@link Interner.internTail} takes them: k = 0 the
 * last 4 bytes, k = 1 the 4 before, big-endian, missing bytes 0.
 */
function tailWord(buf: Uint8Array, start: number, end: number, k: number): number {
  const e = end - 4 * k;
  let w = 0;
  for (let i = Math.max(e - 4, start); i < e; i++) w = (w << 8) | buf[i];
  return w;
}

/** FNV-1a (32-bit): start from `FNV_OFFSET`, then `h = Math.imul(h ^ byte, FNV_PRIME)` per byte. */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** FNV-1a of `buf[start, end)`. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
  return h;
}

/** Returns a copy of `a` with capacity `cap` (a typed array growth helper used across the engine). */
export function grow<T extends Int32Array | Float64Array | Uint8Array | Uint32Array>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/** Returns a copy of `a` with room for index `n - 1`: at least `n` slots and at least double the capacity. */
export function growAtLeast<T extends Int32Array | Float64Array | Uint8Array | Uint32Array>(
  a: T,
  n: number,
): T {
  return grow(a, Math.max(n, a.length * 2));
}

/** Returns a copy of `a` with capacity `cap`, new slots set to `fill`. */
export function growFilled<T extends Int32Array | Float64Array>(a: T, cap: number, fill: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.fill(fill, a.length);
  b.set(a);
  return b;
}
