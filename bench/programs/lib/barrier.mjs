// The barrier of the programs of bench/programs/ (and of the test programs written after them): a sense-reversing
// barrier over an Int32Array of 2 elements in shared memory, as a user would write it with `Atomics`.

/**
 * Waits until `parties` threads have called it on `sync` ([0] arrivals, [1] generation): the last to arrive resets the
 * count, bumps the generation and wakes the others, who wait on the generation they saw. Each arrival's accesses
 * before it happen before every party's return (ECMA-262 §29: `Atomics.add` and `Atomics.load` are seq-cst).
 */
export function barrier(sync, parties) {
  const gen = Atomics.load(sync, 1);
  if (Atomics.add(sync, 0, 1) === parties - 1) {
    Atomics.store(sync, 0, 0);
    Atomics.add(sync, 1, 1);
    Atomics.notify(sync, 1);
  } else {
    while (Atomics.load(sync, 1) === gen) Atomics.wait(sync, 1, gen);
  }
}
