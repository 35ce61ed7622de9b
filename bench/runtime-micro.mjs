/**
 * Per-access cost of the live runtime's element path, run by `npm run bench:instrument` under
 * `node --import dist/node/register.js` (one thread): a read loop over a shared Float64Array whose accesses
 * the same-epoch filter covers (the buffer was read in this epoch already), and the same loop after an
 * `Atomics.add` (a synchronization operation: a new epoch), where every access is a word check; then a loop of
 * `Atomics.add` calls (each a checked atomic access and a synchronization cell); `Buffer#copy` of 1 KiB chunks
 * into a shared 4 MiB buffer (a bulk write, in whole 64-byte pages), per 8-byte word; a loop of `Map#set` calls (a
 * method name the rewriter gives a site, on an object that is not a view), per call; `getFloat64`/`setFloat64`/
 * `getFloat64` of a DataView over memory that is not shared (the runtime's patched methods), per element; and per
 * call on memory that is not shared, `Buffer#readUInt32LE`, `TypedArray#fill` and `TypedArray#set` of 16 bytes
 * (methods the runtime replaces, the last one also for its argument), `Atomics.add`, `TextDecoder#decode` of 16
 * bytes (a method the runtime observes on receivers that are not views) and `TextEncoder#encodeInto` of 16 bytes
 * (likewise, through its second argument, and always sited). Prints ns, best of 60 rounds, as
 * `filtered <ns>`, `checked <ns>`, `atomic <ns>`, `bulk <ns>`, `method <ns>`, `dataview <ns>`, `read <ns>`,
 * `fill <ns>`, `set <ns>`, `atomicPlain <ns>`, `decode <ns>` and `encodeInto <ns>`; plain `node` gives the uninstrumented loops.
 */
const N = 1 << 16;
const g = new Float64Array(new SharedArrayBuffer(8 * N));
const flag = new Int32Array(new SharedArrayBuffer(4));

function sum() {
  let s = 0;
  for (let j = 0; j < N; j++) s += g[j];
  return s;
}

function best(body, n = N) {
  let min = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 60; r++) {
    const t0 = process.hrtime.bigint();
    body();
    min = Math.min(min, Number(process.hrtime.bigint() - t0));
  }
  return (min / n).toFixed(2);
}

sum();
console.log(`filtered ${best(sum)}`);
console.log(
  `checked ${best(() => {
    Atomics.add(flag, 0, 1);
    sum();
  })}`,
);
console.log(
  `atomic ${best(() => {
    for (let j = 0; j < N; j++) Atomics.add(flag, 0, 1);
  })}`,
);
const ring = Buffer.from(new SharedArrayBuffer(4 << 20));
const chunk = Buffer.alloc(1024, 120);
console.log(
  `bulk ${best(() => {
    for (let off = 0; off < ring.length; off += 1024) chunk.copy(ring, off);
  }, ring.length / 8)}`,
);
const map = new Map();
console.log(
  `method ${best(() => {
    for (let j = 0; j < N; j++) map.set(j & 1023, j);
  })}`,
);
const dv = new DataView(new ArrayBuffer(8 * N));
console.log(
  `dataview ${best(() => {
    let s = 0;
    for (let j = 0; j < N; j++) {
      dv.setFloat64(8 * j, dv.getFloat64(8 * j) + 1);
      s += dv.getFloat64(8 * j);
    }
    return s;
  })}`,
);
const local = Buffer.alloc(4 * N);
console.log(
  `read ${best(() => {
    let s = 0;
    for (let j = 0; j < N; j++) s += local.readUInt32LE(4 * j);
    return s;
  })}`,
);
const small = new Uint8Array(64);
const source = new Uint8Array(16);
console.log(
  `fill ${best(() => {
    for (let j = 0; j < N; j++) small.fill(j, 0, 16);
  })}`,
);
console.log(
  `set ${best(() => {
    for (let j = 0; j < N; j++) small.set(source, j & 31);
  })}`,
);
const counters = new Int32Array(16);
console.log(
  `atomicPlain ${best(() => {
    for (let j = 0; j < N; j++) Atomics.add(counters, j & 15, 1);
  })}`,
);
const decoder = new TextDecoder();
const text = new TextEncoder().encode('hello, world 123');
console.log(
  `decode ${best(() => {
    let s = 0;
    for (let j = 0; j < N; j++) s += decoder.decode(text).length;
    return s;
  })}`,
);
const encoder = new TextEncoder();
const into = new Uint8Array(64);
console.log(
  `encodeInto ${best(() => {
    let s = 0;
    for (let j = 0; j < N; j++) s += encoder.encodeInto('hello, world 123', into).written;
    return s;
  })}`,
);
