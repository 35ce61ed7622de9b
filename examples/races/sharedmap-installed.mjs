// sharedmap 1.2.0 itself (not a copy of its pattern): the installed package's documented lockWrite loop in one
// worker while another worker reads, as its own test.js does (Test 7 against Tests 3, 5, 6), on a map of 200 keys
// instead of test.js's 370,101 words (which take ~2 min plainly, and more than the 30 min limit of npm run clients
// under the runtime). Each reader checks that every value it gets is one the writer ever stored, whole.
//   npm run clients -- --clients sharedmap --modes plain      (installs the package in the clients cache once)
//   node examples/races/sharedmap-installed.mjs /tmp/goldilocks-clients/sharedmap@1.2.0/package
//   goldilocks run --on-race=report examples/races/sharedmap-installed.mjs /tmp/goldilocks-clients/sharedmap@1.2.0/package
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

const KEYS = 200;
const ROUNDS = 20;
const pkg = isMainThread ? process.argv[2] : workerData.pkg;
if (!pkg) throw new Error('usage: sharedmap-installed.mjs <the extracted sharedmap 1.2.0 package directory>');
const SharedMap = createRequire(path.join(pkg, 'index.js'))('./index.umd.js');
const valueOf = (k, round) => `${round}:${'v'.repeat(k % 7)}${k}`; // a value of key k, distinct per round

if (isMainThread) {
  const map = new SharedMap(KEYS * 2, 16, 16);
  for (let k = 0; k < KEYS; k++) map.set(`key${k}`, valueOf(k, 0));
  const flags = new Int32Array(new SharedArrayBuffer(8)); // [0] workers ready, [1] the writer is done
  const done = [0, 1].map(
    (role) =>
      new Promise((resolve, reject) => {
        const w = new Worker(new URL(import.meta.url), { workerData: { pkg, map, role, flags } });
        w.on('error', reject);
        w.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${role} exited ${code}`))));
      }),
  );
  await Promise.all(done);
  console.log(`sharedmap: ${map.length} keys after ${ROUNDS} lockWrite rounds`);
} else {
  const { map, role, flags } = workerData;
  Object.setPrototypeOf(map, SharedMap.prototype); // as test.js does
  // Start together (both workers have started before either touches the map), so that the loops overlap.
  Atomics.add(flags, 0, 1);
  while (Atomics.load(flags, 0) < 2) Atomics.wait(flags, 0, Atomics.load(flags, 0), 5);
  if (role === 0) {
    // The lockWrite loop of the documentation: rewrite every value while holding the write lock.
    for (let round = 1; round <= ROUNDS; round++) {
      map.lockWrite();
      for (let k = 0; k < KEYS; k++) map.set(`key${k}`, valueOf(k, round), { lockWrite: true });
      map.unlockWrite();
    }
    Atomics.store(flags, 1, 1);
  } else {
    // A reader, until the writer is done: every value must be one of the values the writer stores, whole.
    while (Atomics.load(flags, 1) === 0)
      for (let k = 0; k < KEYS; k++) {
        const v = map.get(`key${k}`);
        const round = Number(v.split(':')[0]);
        if (v !== valueOf(k, round)) throw new Error(`torn value of key${k}: '${v}'`);
      }
  }
}
