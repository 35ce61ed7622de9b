/**
 * Interning of names (threads, variables, locks, volatiles, source locations...) to dense ids 0..size-1.
 *
 * Names are interned straight from the bytes of the input buffer: the parser never creates a string per
 * event, only once per distinct name (lazily, when a report asks for it). The table is open addressing
 * over {@link nameHash}es; names are stored in one growing byte arena. This is the engine's symbol table
 * (DESIGN.md: "ids (thread, variable, lock, volatile), interning").
 */
export class Interner {
  private arena: Uint8Array = new Uint8Array(0);
  /** The arena as a DataView, and the last input buffer as one: names are compared 4 bytes at a time. */
  private arenaView: DataView = new DataView(this.arena.buffer);
  private input: Uint8Array | undefined;
  private inputView: DataView = new DataView(new ArrayBuffer(0));
  private arenaLength = 0;
  /** Per id: arena offset at `2 * id`, byte length at `2 * id + 1`. */
  private spans: Int32Array = new Int32Array(0);
  /**
   * Open-addressing table of slots of SLOT ints: the name's hash, id+1 (0 = empty), its byte length, its last 8
   * bytes as two ints ({@link tailWord}) and its arena offset. All a probe compares is in one slot (one
   * cache line): with 155,000 names (lusearch's first 3M events), the id-indexed arrays each cost a cache miss.
   */
  private table: Int32Array = new Int32Array(0);
  /** The hash and tail words of the name of the last probe that missed, which {@link add} stores in its slot. */
  private missHash = 0;
  private missW0 = 0;
  private missW1 = 0;
  /** The free slot where {@link find}'s last miss would go, for {@link addMissed}. */
  private missSlot = 0;
  /**
   * The names decoded so far, by id: a `Map`, not an array indexed by id. A report names a few ids spread over the
   * whole range (a racy variable interned late has an id in the hundreds of thousands); an empty array written at
   * such an index turns to dictionary elements, the first such transition of V8's initial holey-array map, which then
   * is no longer stable, and every function optimized on that map's stability (the parser's loop, which reads the
   * keyword table `SHORT_KEYWORDS` of `trace/std.ts`) is thrown away at the trace's first race (issue 24 §3,
   * test/cli/recompile.test.ts; docs/ARCHITECTURE.md "Tables that grow").
   */
  private readonly strings = new Map<number, string>();
  /** Number of distinct names interned so far; ids are 0..size-1. */
  size = 0;
  /**
   * With {@link trackChanges}: the slots {@link add} wrote since the last {@link takeChanges} (their numbers, `slotsLength`
   * of them), and whether the table was rehashed meanwhile (then all of it is new). Undefined: not tracked.
   */
  private changedSlots: Int32Array | undefined;
  private changedSlotsLength = 0;
  private rehashed = false;
  /** The size at the last {@link takeChanges}. */
  private taken = 0;

  /**
   * The arena, the spans and the table allocated as they grow, so that each field is written twice before any code
   * runs (V8 then compiles no code that relies on its first value: docs/ARCHITECTURE.md, "Tables that grow").
   */
  constructor() {
    this.growArena(1 << 12);
    this.spans = grow(this.spans, 2 * INITIAL_NAMES);
    this.table = new Int32Array(SLOT * 2 * INITIAL_NAMES);
  }

  /**
   * Interns the UTF-8 bytes `buf[start, end)`.
   * @returns the id of the name (a new id, equal to the previous `size`, when the name is new).
   */
  internBytes(buf: Uint8Array, start: number, end: number): number {
    const r = this.probe(buf, start, end);
    return r >= 0 ? r : this.add(buf, start, end, -1 - r);
  }

  /** Looks the UTF-8 bytes `buf[start, end)` up without interning them. @returns the name's id, or -1. */
  find(buf: Uint8Array, start: number, end: number): number {
    const r = this.probe(buf, start, end);
    if (r >= 0) return r;
    this.missSlot = -1 - r;
    return -1;
  }

  /**
   * Interns `buf[start, end)` right after {@link find} missed it (no other lookup in this table since): in the slot
   * that probe found free, without probing again. @returns its new id.
   */
  addMissed(buf: Uint8Array, start: number, end: number): number {
    return this.add(buf, start, end, this.missSlot);
  }

  /**
   * The probe of {@link internBytes} and {@link find}: the hash is {@link nameHash} of the length and the last 8 bytes,
   * and for a name longer than 8 bytes its first 4 (no pass over the name). A name of at most 8 bytes is found by
   * comparing hash, length and the last 8 bytes as two words, all in its slot — no byte loop; a longer one compares
   * its other bytes too ({@link sameHead}). Small, so that V8 inlines it where it is called; the rare paths are
   * methods of their own.
   * @returns the name's id, or `-1 - slot` with the free slot where it would go (its hash and tail words then kept
   * for {@link add}).
   */
  private probe(buf: Uint8Array, start: number, end: number): number {
    if (buf !== this.input) this.setInput(buf);
    // the words by one unaligned load each (tailWordAt), where the 4 bytes before the word's end are in `buf`
    const view = this.inputView;
    const len = end - start;
    const w0 = end >= 4 ? tailWordAt(view, start, end) : tailWord(buf, start, end, 0);
    const w1 = end >= 8 ? tailWordAt(view, start, end - 4) : tailWord(buf, start, end, 1);
    const h = nameHash(len, len > 8 ? view.getInt32(start) : 0, w0, w1);
    const table = this.table;
    const mask = table.length / SLOT - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const t = slot * SLOT;
      const e = table[t + 1];
      if (e === 0) return this.missed(h, w0, w1, slot);
      if (
        table[t] === h &&
        table[t + 2] === len &&
        table[t + 3] === w0 &&
        table[t + 4] === w1 &&
        (len <= 8 || this.sameHead(buf, start, end - 8, table[t + 5]))
      )
        return e - 1;
    }
  }

  /** Makes `buf` the input {@link probe} reads words of. */
  private setInput(buf: Uint8Array): void {
    this.input = buf;
    this.inputView = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  /** {@link probe}'s miss: keeps the name's hash and tail words for {@link add}. @returns `-1 - slot`. */
  private missed(h: number, w0: number, w1: number, slot: number): number {
    this.missHash = h;
    this.missW0 = w0;
    this.missW1 = w1;
    return -1 - slot;
  }

  /**
   * Whether `buf[start, head)` (a name but its last 8 bytes) equals the arena's bytes from `a`: 4 at a time (unaligned
   * DataView reads), then 1.
   */
  private sameHead(buf: Uint8Array, start: number, head: number, a: number): boolean {
    let i = start;
    if (head - i >= 8) {
      const da = this.arenaView;
      const db = this.inputView;
      while (i + 4 <= head && da.getInt32(a) === db.getInt32(i)) {
        a += 4;
        i += 4;
      }
    }
    const arena = this.arena;
    while (i < head && arena[a] === buf[i]) {
      a++;
      i++;
    }
    return i === head;
  }

  /** Interns a JavaScript string (encoded as UTF-8; {@link name} decodes it again when asked). */
  intern(name: string): number {
    const bytes = Buffer.from(name, 'utf8');
    return this.internBytes(bytes, 0, bytes.length);
  }

  /** Looks a name up without interning it. @returns its id, or -1. */
  lookup(name: string): number {
    const bytes = Buffer.from(name, 'utf8');
    return this.find(bytes, 0, bytes.length);
  }

  /** The name of `id` as a string (decoded once, then cached). */
  name(id: number): string {
    let s = this.strings.get(id);
    if (s === undefined) {
      const off = this.spans[2 * id];
      s = Buffer.from(this.arena.buffer, this.arena.byteOffset + off, this.spans[2 * id + 1]).toString(
        'utf8',
      );
      this.strings.set(id, s);
    }
    return s;
  }

  /** The UTF-8 bytes of `id` (a view into the arena, valid until the next intern). */
  bytes(id: number): Uint8Array {
    const off = this.spans[2 * id];
    return this.arena.subarray(off, off + this.spans[2 * id + 1]);
  }

  /**
   * The byte arena the names are stored in, one after another: name `id` is `arenaBytes()[start(id), end(id))` (valid
   * until the next intern, which may move it).
   */
  arenaBytes(): Uint8Array {
    return this.arena;
  }

  /** The offset of name `id`'s first byte in {@link arenaBytes}. */
  start(id: number): number {
    return this.spans[2 * id];
  }

  /** The offset after name `id`'s last byte in {@link arenaBytes}. */
  end(id: number): number {
    return this.spans[2 * id] + this.spans[2 * id + 1];
  }

  /** Adds the name `buf[start, end)` in `slot`, where the probe that just missed it would have found it. */
  private add(buf: Uint8Array, start: number, end: number, slot: number): number {
    const id = this.size++;
    const len = end - start;
    if (this.arenaLength + len > this.arena.length) this.growArena(this.arenaLength + len);
    // byte by byte: `set(buf.subarray(...))` makes a view object per name (a Buffer's through its constructor)
    const arena = this.arena;
    for (let i = 0, a = this.arenaLength; i < len; i++) arena[a + i] = buf[start + i];
    if (2 * id >= this.spans.length) this.spans = grow(this.spans, this.spans.length * 2);
    this.spans[2 * id] = this.arenaLength;
    this.spans[2 * id + 1] = len;
    this.arenaLength += len;
    const t = slot * SLOT;
    this.table[t] = this.missHash;
    this.table[t + 1] = id + 1;
    this.table[t + 2] = len;
    this.table[t + 3] = this.missW0;
    this.table[t + 4] = this.missW1;
    this.table[t + 5] = this.spans[2 * id];
    if (this.changedSlots !== undefined) this.slotChanged(slot);
    if (this.size * 2 * SLOT > this.table.length) this.rehash();
    return id;
  }

  /** Logs slot `slot` as written since the last {@link takeChanges}. */
  private slotChanged(slot: number): void {
    let log = this.changedSlots as Int32Array;
    if (this.changedSlotsLength === log.length) this.changedSlots = log = grow(log, log.length * 2);
    log[this.changedSlotsLength++] = slot;
  }

  /**
   * Starts logging what {@link add} changes, for {@link takeChanges}: on the side of a table that another one, in another
   * thread, follows by {@link applyChanges} (trace/pipeline.ts, the parser thread's names).
   */
  trackChanges(): void {
    this.changedSlots = new Int32Array(64);
    this.changedSlotsLength = 0;
    this.taken = this.size;
  }

  /**
   * The names interned since {@link trackChanges} or the last call, as data a copy of this table at that point turns
   * into a copy of it now ({@link applyChanges}) without hashing or probing a name: their bytes and spans, and the
   * table's slots written (or the whole table after a rehash). Copies: the result may be posted to another thread.
   * @returns undefined when no name was interned since (nothing to copy: most of a long trace's batches, whose names
   *   were all seen before; issue 24 §3, fewer typed arrays allocated, posted and cloned per batch).
   * @throws Error if changes are not tracked.
   */
  takeChanges(): InternerChanges | undefined {
    const log = this.changedSlots;
    if (log === undefined) throw new Error('Interner.takeChanges: changes are not tracked (trackChanges)');
    const from = this.taken;
    if (from === this.size && !this.rehashed) return undefined;
    const arenaFrom = from < this.size ? this.spans[2 * from] : this.arenaLength;
    let table: Int32Array | undefined;
    let slots: Int32Array;
    if (this.rehashed) {
      table = this.table.slice();
      slots = new Int32Array(0);
    } else {
      slots = new Int32Array(this.changedSlotsLength * (SLOT + 1));
      for (let k = 0; k < this.changedSlotsLength; k++) {
        const t = log[k] * SLOT;
        slots[k * (SLOT + 1)] = log[k];
        slots.set(this.table.subarray(t, t + SLOT), k * (SLOT + 1) + 1);
      }
    }
    const changes: InternerChanges = {
      from,
      size: this.size,
      bytes: this.arena.slice(arenaFrom, this.arenaLength),
      spans: this.spans.slice(2 * from, 2 * this.size),
      table,
      slots,
    };
    this.taken = this.size;
    this.changedSlotsLength = 0;
    this.rehashed = false;
    return changes;
  }

  /**
   * Makes this table, a copy of the one `changes` were taken from as it was then (the same names with the same ids, in
   * the same slots), a copy of it as it was when they were taken: appends their names' bytes and spans, writes their
   * slots. No name is hashed or compared: in the thread that follows a parser thread, this costs a copy where
   * interning each name anew, in code not yet optimized, cost up to 0.2 s on a 2M-event trace (issue 24 §3).
   * @throws Error if this table does not hold exactly the names the other one held then (a different size).
   */
  applyChanges(changes: InternerChanges): void {
    if (changes.from !== this.size)
      throw new Error(`Interner.applyChanges: ${this.size} names here, the changes follow ${changes.from}`);
    const n = changes.size;
    const len = changes.bytes.length;
    if (this.arenaLength + len > this.arena.length) this.growArena(this.arenaLength + len);
    this.arena.set(changes.bytes, this.arenaLength);
    this.arenaLength += len;
    if (2 * n > this.spans.length) {
      let cap = this.spans.length * 2;
      while (cap < 2 * n) cap *= 2;
      this.spans = grow(this.spans, cap);
    }
    this.spans.set(changes.spans, 2 * changes.from);
    this.size = n;
    if (changes.table !== undefined) this.table = changes.table;
    else {
      const slots = changes.slots;
      const table = this.table;
      for (let k = 0; k < slots.length; k += SLOT + 1)
        table.set(slots.subarray(k + 1, k + 1 + SLOT), slots[k] * SLOT);
    }
  }

  /** Doubles the arena (from 4 KiB at first) until it holds `bytes` bytes. */
  private growArena(bytes: number): void {
    let cap = Math.max(1 << 12, this.arena.length * 2);
    while (cap < bytes) cap *= 2;
    const a = new Uint8Array(cap);
    a.set(this.arena.subarray(0, this.arenaLength));
    this.arena = a;
    this.arenaView = new DataView(a.buffer);
  }

  /** Doubles the table (kept at most half full). */
  private rehash(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    const mask = table.length / SLOT - 1;
    for (let j = 0; j < old.length; j += SLOT) {
      if (old[j + 1] === 0) continue;
      let slot = old[j] & mask;
      while (table[slot * SLOT + 1] !== 0) slot = (slot + 1) & mask;
      for (let k = 0, t = slot * SLOT; k < SLOT; k++) table[t + k] = old[j + k];
    }
    this.table = table;
    this.rehashed = true;
  }
}

/**
 * What {@link Interner.takeChanges} gives and {@link Interner.applyChanges} takes: the names `[from, size)`, their UTF-8
 * bytes one after another (`bytes`) and their spans (`spans`: offset in the table's arena, byte length, per name),
 * and the table's slots written meanwhile (`slots`: per slot its number and its ints), or, after a rehash, the whole
 * table (`table`).
 */
export interface InternerChanges {
  from: number;
  size: number;
  bytes: Uint8Array;
  spans: Int32Array;
  table: Int32Array | undefined;
  slots: Int32Array;
}

/** Int32 per slot of the Interner's table (8: two slots per 64-byte cache line). */
const SLOT = 8;

/** Names an {@link Interner} holds before its spans and table first grow. */
const INITIAL_NAMES = 64;

/**
 * Word `k` of the last 8 bytes of `buf[start, end)`: k = 0 the last 4 bytes, k = 1 the 4 before, big-endian, missing
 * bytes 0.
 */
function tailWord(buf: Uint8Array, start: number, end: number, k: number): number {
  const e = end - 4 * k;
  if (e - 4 >= start) return (buf[e - 4] << 24) | (buf[e - 3] << 16) | (buf[e - 2] << 8) | buf[e - 1];
  let w = 0;
  for (let i = Math.max(e - 4, start); i < e; i++) w = (w << 8) | buf[i];
  return w;
}

/**
 * {@link tailWord} by one unaligned load: the bytes `[e - 4, e)` of the view that are at or after `start`, big-endian,
 * missing bytes 0 (`e` ≥ 4: the load stays in the view).
 */
function tailWordAt(view: DataView, start: number, e: number): number {
  const n = e - start;
  if (n >= 4) return view.getInt32(e - 4);
  return n <= 0 ? 0 : view.getUint32(e - 4) & ((1 << (8 * n)) - 1);
}

/**
 * The hash of a name of `len` bytes from its first 4 bytes (`head`, big-endian; 0 for a name of at most 8 bytes, all
 * in its last 8) and its last 8 (`w0`, `w1`, {@link tailWord}), mixed as MurmurHash3's finalizer does. The bytes between are not
 * hashed, so that a scanner need not do arithmetic per byte: names that differ only there share a hash and are
 * told apart by the table's comparison (in real traces names differ at their end: the field, the object id).
 */
function nameHash(len: number, head: number, w0: number, w1: number): number {
  let h = Math.imul(len ^ head, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ w0, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ w1, 0x85ebca6b);
  return h ^ (h >>> 13);
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
