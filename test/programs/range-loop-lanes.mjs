// expect: no race
// idiom: crypt's block loop (bench/kernels/crypt.mjs): 8-byte blocks read byte by byte (a stride of 8 bytes per
// access), an inner loop of literal bounds over Int32 subkeys read through a counter the body declares
// (`key[ik++]`), the block's bytes written back. The main thread writes the text and the key before the workers
// start; each worker ciphers its own half of the blocks: no race, and the loop takes one range check.
import { workers } from './sched.mjs';

/** A 16-bit mix of x and k (a pure function of the module). */
function mix(x, k) {
  return (x * 31 + k) & 0xffff;
}

/** Blocks [lo, hi) of text1 into text2 with the 12 subkeys of key: the bytes of a block read out of order. */
function cipher(text1, text2, key, lo, hi) {
  for (let blk = lo; blk < hi; blk++) {
    const i = 8 * blk;
    let lo16 = text1[i + 7] ^ (text1[i] << 8);
    let hi16 = (text1[i + 1] << 8) + text1[i + 6] + text1[i + 2];
    const odd = text1[i + 3] * text1[i + 5] - text1[i + 4];
    let ik = 0;
    for (let r = 0; r < 3; r++) {
      lo16 = mix(lo16 ^ odd, key[ik++]);
      hi16 = (hi16 * 3 + key[ik++] + r) & 0xffff;
      lo16 = mix(hi16, key[ik++] ^ key[ik++]);
    }
    text2[i + 4] = lo16;
    text2[i] = lo16 >>> 8;
    text2[i + 7] = hi16;
    text2[i + 1] = hi16 >>> 8;
    text2[i + 2] = odd;
    text2[i + 3] = odd >>> 8;
    text2[i + 6] = lo16 ^ hi16;
    text2[i + 5] = 255 - blk;
  }
}

const BLOCKS = 16;
const { main, joined, i, text1, text2, key } = workers(import.meta.url, 2, () => {
  const text1 = new Uint8Array(new SharedArrayBuffer(8 * BLOCKS));
  const key = new Int32Array(new SharedArrayBuffer(4 * 12));
  for (let k = 0; k < text1.length; k++) text1[k] = (k * 37 + 11) & 0xff;
  for (let k = 0; k < key.length; k++) key[k] = (k * 7919 + 5) & 0xffff;
  return { text1, text2: new Uint8Array(new SharedArrayBuffer(8 * BLOCKS)), key };
});
if (main) {
  await joined;
  let sum = 0;
  for (let k = 0; k < text2.length; k++) sum = (sum * 31 + text2[k]) % 65521;
  console.log(`checksum: ${sum}`);
} else {
  cipher(text1, text2, key, (i * BLOCKS) / 2, ((i + 1) * BLOCKS) / 2);
}
