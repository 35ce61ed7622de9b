// TSP's double-checked bound of Jumble's evaluation (PLDI 2010 §6.1): 2 workers search the tours of 8 cities by
// branch and bound, pruning against the shared best length `minTourLen` read without the lock; a better tour is
// stored under the lock after checking again. A stale (larger) bound only prunes less: the result is always
// right, the search just does more work — QoS, not a failure.
//   node examples/jumble/tsp.mjs            → tsp min tour 117
import { workers } from '../../test/programs/sched.mjs';

const CITIES = 8;
/** Symmetric integer distances, from a fixed pseudo-random sequence. */
const dist = Array.from({ length: CITIES }, (_, a) =>
  Array.from({ length: CITIES }, (_, b) => (a === b ? 0 : 5 + ((a + 1) * (b + 1) * 7919 + (a + b) * 104729) % 41)),
);

const { main, joined, i, lock, minTourLen } = workers(import.meta.url, 2, () => ({
  lock: new Int32Array(new SharedArrayBuffer(4)), // MinLock
  minTourLen: new Int32Array(new SharedArrayBuffer(4)).fill(0x7fffffff), // TspSolver.MinTourLen
}));

function setBest(len) {
  while (Atomics.compareExchange(lock, 0, 0, 1) !== 0); // synchronized (MinLock)
  if (len < minTourLen[0]) minTourLen[0] = len;
  Atomics.store(lock, 0, 0);
}

/** Extends the partial tour ending at `city` (of length `len`, `visited` a bit set) with every unvisited city. */
function search(city, len, visited, depth) {
  if (len >= minTourLen[0]) return; // the racy read of the bound
  if (depth === CITIES) return setBest(len + dist[city][0]);
  for (let next = 1; next < CITIES; next++)
    if (!(visited & (1 << next))) search(next, len + dist[city][next], visited | (1 << next), depth + 1);
}

if (main) {
  await joined;
  console.log(`tsp min tour ${minTourLen[0]}`);
} else {
  for (let first = 1 + i; first < CITIES; first += 2) search(first, dist[0][first], 1 | (1 << first), 2);
}
