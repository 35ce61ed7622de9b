/**
 * Crypt (Java Grande Forum, section 2): IDEA encryption then decryption of an n-byte array.
 *
 * Data (shared): the plaintext plain1, the ciphertext crypt1 and the decrypted text plain2 (Uint8Arrays of n,
 * n a multiple of 8), the encryption and decryption subkeys z and dk (Int32Arrays of 52, written by the main
 * thread before the start, then only read). The 8-byte blocks are cut into one contiguous part per worker.
 *   1. worker w encrypts part w: reads plain1, writes crypt1 of that part;
 *   barrier;
 *   2. worker w decrypts part (w+1) % workers — the part another worker encrypted, to hand data from one thread
 *      to another through the barrier: reads crypt1, writes plain2 of that part.
 * The main thread compares plain2 with plain1 after the join.
 *
 *   node bench/kernels/crypt.mjs --workers 4 --size small
 */
import { isMainThread, workerData } from 'node:worker_threads';
import {
  block,
  compareArrays,
  kernelMain,
  parseKernelArgs,
  printResult,
  random,
  runWorkers,
  shared,
  workerBarrier,
} from './lib.mjs';

/** n, the bytes of each of the three texts; large: 540 MiB of them. */
const SIZES = { tiny: 1 << 14, small: 3 << 18, medium: 24 << 20, large: 180 << 20 };

/** IDEA multiplication modulo 65537, 0 standing for 65536. */
function mul(a, b) {
  if (a === 0) return (0x10001 - b) & 0xffff;
  if (b === 0) return (0x10001 - a) & 0xffff;
  return ((a * b) % 0x10001) & 0xffff;
}

/** Multiplicative inverse modulo 65537 (JGF inv; 0 and 1 are their own inverses). */
function inv(x0) {
  let x = x0;
  if (x <= 1) return x;
  let t1 = Math.floor(0x10001 / x);
  let y = 0x10001 % x;
  if (y === 1) return (1 - t1) & 0xffff;
  let t0 = 1;
  do {
    let q = Math.floor(x / y);
    x %= y;
    t0 += q * t1;
    if (x === 1) return t0;
    q = Math.floor(y / x);
    y %= x;
    t1 += q * t0;
  } while (y !== 1);
  return (1 - t1) & 0xffff;
}

/** The 52 encryption subkeys of an 8×16-bit user key (JGF calcEncryptKey). */
function encryptKey(userkey, z) {
  for (let i = 0; i < 8; i++) z[i] = userkey[i] & 0xffff;
  for (let i = 8; i < 52; i++) {
    const j = i % 8;
    if (j < 6) z[i] = ((z[i - 7] >>> 9) | (z[i - 6] << 7)) & 0xffff;
    else if (j === 6) z[i] = ((z[i - 7] >>> 9) | (z[i - 14] << 7)) & 0xffff;
    else z[i] = ((z[i - 15] >>> 9) | (z[i - 14] << 7)) & 0xffff;
  }
}

/** The 52 decryption subkeys (JGF calcDecryptKey). */
function decryptKey(z, dk) {
  let j = 51;
  let k = 0;
  let t1 = inv(z[k++]);
  let t2 = -z[k++] & 0xffff;
  let t3 = -z[k++] & 0xffff;
  dk[j--] = inv(z[k++]);
  dk[j--] = t3;
  dk[j--] = t2;
  dk[j--] = t1;
  for (let i = 0; i < 8; i++) {
    t1 = z[k++];
    dk[j--] = z[k++];
    dk[j--] = t1;
    t1 = inv(z[k++]);
    t2 = -z[k++] & 0xffff;
    t3 = -z[k++] & 0xffff;
    dk[j--] = inv(z[k++]);
    // the last round does not swap the middle subkeys
    dk[j--] = i === 7 ? t3 : t2;
    dk[j--] = i === 7 ? t2 : t3;
    dk[j--] = t1;
  }
}

/** IDEA on the 8-byte blocks [lo, hi) of text1 into text2 with subkeys key (JGF cipher_idea). */
function cipher(text1, text2, key, lo, hi) {
  for (let blk = lo; blk < hi; blk++) {
    const i = 8 * blk;
    let x1 = text1[i] | (text1[i + 1] << 8);
    let x2 = text1[i + 2] | (text1[i + 3] << 8);
    let x3 = text1[i + 4] | (text1[i + 5] << 8);
    let x4 = text1[i + 6] | (text1[i + 7] << 8);
    let ik = 0;
    for (let r = 0; r < 8; r++) {
      x1 = mul(x1, key[ik++]);
      x2 = (x2 + key[ik++]) & 0xffff;
      x3 = (x3 + key[ik++]) & 0xffff;
      x4 = mul(x4, key[ik++]);
      let t2 = x1 ^ x3;
      t2 = mul(t2, key[ik++]);
      let t1 = (t2 + (x2 ^ x4)) & 0xffff;
      t1 = mul(t1, key[ik++]);
      t2 = (t1 + t2) & 0xffff;
      x1 ^= t1;
      x4 ^= t2;
      t2 ^= x2;
      x2 = x3 ^ t1;
      x3 = t2;
    }
    x1 = mul(x1, key[ik++]);
    x3 = (x3 + key[ik++]) & 0xffff;
    x2 = (x2 + key[ik++]) & 0xffff;
    x4 = mul(x4, key[ik++]);
    text2[i] = x1;
    text2[i + 1] = x1 >>> 8;
    text2[i + 2] = x3;
    text2[i + 3] = x3 >>> 8;
    text2[i + 4] = x2;
    text2[i + 5] = x2 >>> 8;
    text2[i + 6] = x4;
    text2[i + 7] = x4 >>> 8;
  }
}

function worker(data) {
  const { plain1, crypt1, plain2, z, dk, n, id, workers } = data;
  const barrier = workerBarrier(data);
  const [lo, hi] = block(n / 8, workers, id);
  cipher(plain1, crypt1, z, lo, hi);
  barrier.wait();
  const [lo2, hi2] = block(n / 8, workers, (id + 1) % workers);
  cipher(crypt1, plain2, dk, lo2, hi2);
}

async function main() {
  const args = parseKernelArgs('crypt');
  const n = SIZES[args.size];
  const plain1 = shared(Uint8Array, n);
  const crypt1 = shared(Uint8Array, n);
  const plain2 = shared(Uint8Array, n);
  const z = shared(Int32Array, 52);
  const dk = shared(Int32Array, 52);
  const r = random(136506717);
  const userkey = Array.from({ length: 8 }, () => Math.floor(r() * 65536));
  encryptKey(userkey, z);
  decryptKey(z, dk);
  for (let i = 0; i < n; i++) plain1[i] = Math.floor(r() * 256);
  const ms = await runWorkers(new URL(import.meta.url), args.workers, { plain1, crypt1, plain2, z, dk, n });
  let sum = 0;
  for (let i = 0; i < n; i++) sum = (sum * 31 + crypt1[i]) % 2147483647;
  let mismatch = compareArrays('plain2 (decrypted)', plain2, plain1);
  if (mismatch === undefined && args.verify) {
    const c = new Uint8Array(n);
    cipher(plain1, c, z, 0, n / 8);
    mismatch = compareArrays('crypt1', crypt1, c);
  }
  printResult('crypt', args, sum, ms, mismatch);
}

kernelMain(isMainThread, main, worker, workerData);
