// @zenfs/core 2.7.6 itself (not a copy of its pattern): the installed package's SuperBlock#rotateMetadata from two
// threads at once on one SharedArrayBuffer, as its own test "concurrent rotation keeps every metadata block
// reachable" (tests/backend/single-buffer.test.ts) does, without that test's 1 s deadline. Each rotation reserves
// space with `Atomics.compareExchange` on used_bytes and links the new block with `Atomics.compareExchange`, then
// `_update(this)` stores the super block's checksum plainly (see zenfs-checksum.mjs); the main thread then mounts
// the buffer (`new SuperBlock(buffer)` checks the checksum).
//   npm run clients -- --clients @zenfs/core --modes plain      (installs the package in the clients cache once)
//   node examples/races/zenfs-rotate-installed.mjs /tmp/goldilocks-clients/@zenfs+core@2.7.6/package
//   goldilocks run --on-race=report examples/races/zenfs-rotate-installed.mjs /tmp/goldilocks-clients/@zenfs+core@2.7.6/package
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const ROTATIONS = 100;
const pkg = isMainThread ? process.argv[2] : workerData.pkg;
if (!pkg) throw new Error('usage: zenfs-rotate-installed.mjs <the extracted @zenfs/core 2.7.6 package directory>');
const { SuperBlock } = await import(pathToFileURL(path.join(pkg, 'dist/backends/single_buffer.js')).href);

if (isMainThread) {
  const buffer = new SharedArrayBuffer(0x200000);
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const superblock = new SuperBlock(buffer);
  const worker = new Worker(new URL(import.meta.url), { workerData: { pkg, buffer, gate } });
  const theirs = new Promise((resolve, reject) => {
    worker.on('message', (m) => m !== 'ready' && resolve(m));
    worker.on('error', reject);
  });
  await new Promise((resolve) => worker.once('message', resolve)); // 'ready'
  Atomics.store(gate, 0, 1);
  Atomics.notify(gate, 0);
  const mine = [];
  for (let i = 0; i < ROTATIONS; i++) mine.push(superblock.rotateMetadata().byteOffset);
  const offsets = new Set([...mine, ...(await theirs)]);
  await new Promise((resolve) => worker.on('exit', resolve));
  const mounted = new SuperBlock(buffer); // throws EIO on a checksum mismatch
  console.log(`zenfs: ${offsets.size} rotations, mounted with used_bytes ${mounted.used_bytes}`);
} else {
  const { buffer, gate } = workerData;
  const superblock = new SuperBlock(buffer);
  parentPort.postMessage('ready');
  Atomics.wait(gate, 0, 0, 1000);
  const offsets = [];
  for (let i = 0; i < ROTATIONS; i++) offsets.push(superblock.rotateMetadata().byteOffset);
  parentPort.postMessage(offsets);
}
