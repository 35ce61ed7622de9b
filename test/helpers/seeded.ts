/** A seeded generator of integers in [0, n) (a linear congruential one: a test using it repeats). */
export function seeded(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}
