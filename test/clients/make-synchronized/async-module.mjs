// The asynchronous module of sync.test.mjs.
import { setTimeout as sleep } from 'node:timers/promises';

export default async function next(n) {
  await sleep(n % 2);
  return n + 1;
}

export async function describe(n) {
  return { i: n, odd: n % 2 === 1 };
}

export async function fail(n) {
  await sleep(1);
  throw new Error(`failed on ${n}`);
}

export async function large(n) {
  return 'cd'.repeat(n / 2);
}
