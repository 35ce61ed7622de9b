// The real race of @zenfs/core 2.7.6 (dist/backends/single_buffer.js), its pattern written out on a super block
// of 64 bytes. A SingleBuffer file system lives in one SharedArrayBuffer that several threads mount. A thread that
// stores data reserves space with `Atomics.add(superblock, used_bytes, n)`, under the lock of the metadata block
// it updates, then `_update(superblock)`: `checksum = crc32c(bytes 4..end)`, a plain store of the checksum computed
// from plain loads. Two threads updating entries of two metadata blocks hold two different locks, so their checksum
// stores race (and their loads of used_bytes race with the other's `Atomics.add`): the checksum left in memory can
// be the one computed before the other thread's `Atomics.add`, and the next mount of the buffer fails with
// "sbfs: checksum mismatch for super block" (EIO).
// Worker 0 and worker 1 each store 3 pieces of data, alternating (steps 0-5 of the invisible schedule of
// test/programs/sched.mjs, which adds no happens-before); the main thread then mounts the buffer, checking the
// checksum as the SuperBlock constructor does. Plain runs mount it.
//   node examples/races/zenfs-checksum.mjs      → zenfs mounted: used_bytes 4192, checksum 0x…
//   goldilocks run --on-race=report examples/races/zenfs-checksum.mjs     → races on the checksum
// The fix: compute and store the checksum under one lock of the super block (or as an `Atomics.compareExchange`
// loop over a snapshot of the block), and read used_bytes in it with `Atomics.load`.
import { workers } from '../../test/programs/sched.mjs';

const SIZE = 64; // bytes of the super block: checksum u32 @0, used_bytes u64 @8, total_bytes u64 @16, …
const USED = 1; // used_bytes as element 1 of a BigUint64Array
const START = 4096n; // used_bytes of a fresh file system

/** CRC-32C (Castagnoli), as utilium/checksum's crc32c: bytes in, unsigned 32-bit out. */
const TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc32c(bytes) {
  let c = ~0;
  for (let k = 0; k < bytes.length; k++) c = TABLE[(c ^ bytes[k]) & 0xff] ^ (c >>> 8); // plain loads
  return ~c >>> 0;
}
/** single_buffer.js `checksum(value)`: the CRC of the block without its checksum. */
const checksum = (block) => crc32c(new Uint8Array(block.buffer, block.byteOffset + 4, SIZE - 4));
/** single_buffer.js `_update(value)`: a plain store of the new checksum. */
function update(block) {
  new Uint32Array(block.buffer, block.byteOffset, 1)[0] = checksum(block);
}
/** A fresh super block (mkfs, before the workers start). */
function format() {
  const block = new BigUint64Array(new SharedArrayBuffer(SIZE));
  block[USED] = START;
  block[2] = 0x100000n; // total_bytes
  update(block);
  return block;
}
/** MetadataBlock#lock of block `b`: wait until unlocked, then `Atomics.store(locked, 1)`; returns the release. */
function lockMetadata(b) {
  while (Atomics.load(locks, b) !== 0) Atomics.wait(locks, b, 1);
  Atomics.store(locks, b, 1);
  return () => {
    Atomics.store(locks, b, 0);
    Atomics.notify(locks, b, 1);
  };
}

const { main, joined, i, at, superblock, locks } = workers(import.meta.url, 2, () => ({
  superblock: format(),
  locks: new Int32Array(new SharedArrayBuffer(8)), // the `locked` words of two metadata blocks
}));

if (main) {
  await joined;
  const stored = new Uint32Array(superblock.buffer, 0, 1)[0];
  const computed = checksum(superblock);
  if (stored !== computed)
    throw new Error(`EIO: sbfs: checksum mismatch for super block (saved ${stored}, computed ${computed})`);
  console.log(`zenfs mounted: used_bytes ${Atomics.load(superblock, USED)}, checksum 0x${stored.toString(16)}`);
} else {
  for (let n = 0; n < 3; n++) {
    at(2 * n + i, () => {
      const release = lockMetadata(i); // SingleBufferStore#set: the lock of the entry's metadata block
      Atomics.add(superblock, USED, 32n * BigInt(i + 1)); // entry.offset = Atomics.add(superblock, kUsedBytes, …)
      update(superblock); // _update(this.superblock): the racy checksum
      release();
    });
  }
}
