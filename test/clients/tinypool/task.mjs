// The task of pool.test.mjs: adds `i` to the Float64 total of `shared` under a spin lock (Int32 word 0), returns i².
export default function task({ i, shared }) {
  if (i < 0) throw new Error(`negative task ${i}`);
  const lock = new Int32Array(shared, 0, 1);
  const total = new Float64Array(shared, 8, 1);
  while (Atomics.compareExchange(lock, 0, 0, 1) !== 0) Atomics.wait(lock, 0, 1, 1);
  total[0] += i;
  Atomics.store(lock, 0, 0);
  Atomics.notify(lock, 0, 1);
  return i * i;
}
