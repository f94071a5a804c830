// HMAC-SHA256 (RFC 2104, FIPS 180-4) for the visitor key, in plain JavaScript. Each tracked event needs one
// HMAC of a short message (a client IP) under a key that changes once a month, so the key's inner and outer pad
// blocks are compressed once and every message then costs two compressions from those states in reused
// buffers. Why not node:crypto: `bench/hmac.ts` runs both on the same messages, interleaved; on Deno 2.9.6 on
// the 2-core bench machine this file takes 2.4–3.8 µs per HMAC and `createHmac("sha256", key)` 34–81 µs
// (median ratio 14×, 7 rounds at load 0.5–3.8), because each createHmac call re-keys and crosses into native
// code several times. At ~150 µs of CPU per tracked visit that is a fifth of the ingestion cost, so the
// ~100 lines stay.
// hmac_sha256_test.ts checks it against node:crypto.

// deno-fmt-ignore
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const w = new Int32Array(64); // message schedule, reused (single-threaded, never re-entered)

/** Compresses the 64-byte block at `offset` of `block` into `state`. */
function compress(state: Int32Array, block: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (block[j] << 24) | (block[j + 1] << 16) | (block[j + 2] << 8) | block[j + 3];
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15], b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3];
  let e = state[4], f = state[5], g = state[6], h = state[7];
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

// Scratch space, reused: allocating typed arrays would cost more than the hashing (single-threaded, and no
// function here calls back out, so none is re-entered).
const state = new Int32Array(8);
const tail = new Uint8Array(128);
const scratch = new Uint8Array(256);
const encoder = new TextEncoder();

/**
 * Finishes into `state` a SHA-256 whose first `prefixBytes` (a multiple of 64) are already compressed into
 * `from`, followed by the first `length` bytes of `data`.
 */
function finish(from: Int32Array, prefixBytes: number, data: Uint8Array, length: number): void {
  state.set(from);
  const whole = length - (length % 64);
  for (let offset = 0; offset < whole; offset += 64) compress(state, data, offset);
  const rest = length - whole;
  const size = rest < 56 ? 64 : 128;
  tail.fill(0, 0, size);
  tail.set(data.subarray(whole, length));
  tail[rest] = 0x80;
  const bits = (prefixBytes + length) * 8; // messages here are far below 2^32 bits
  tail[size - 4] = bits >>> 24;
  tail[size - 3] = bits >>> 16;
  tail[size - 2] = bits >>> 8;
  tail[size - 1] = bits;
  for (let offset = 0; offset < size; offset += 64) compress(state, tail, offset);
}

/** Writes `state`'s eight words big-endian into `out` (32 bytes). */
function stateBytes(out: Uint8Array): Uint8Array {
  for (let i = 0; i < 8; i++) {
    out[i * 4] = state[i] >>> 24;
    out[i * 4 + 1] = state[i] >>> 16;
    out[i * 4 + 2] = state[i] >>> 8;
    out[i * 4 + 3] = state[i];
  }
  return out;
}

/** A key's pads, compressed once. */
export interface HmacKey {
  inner: Int32Array;
  outer: Int32Array;
}

/** Prepares `key` for many HMACs. */
export function hmacKey(key: Uint8Array): HmacKey {
  const block = new Uint8Array(64);
  if (key.byteLength > 64) {
    // A key longer than a block is hashed first (RFC 2104).
    finish(new Int32Array(IV), 0, key, key.byteLength);
    block.set(stateBytes(new Uint8Array(32)));
  } else block.set(key);
  const pad = (byte: number) => {
    const words = new Int32Array(IV);
    compress(words, block.map((b) => b ^ byte), 0);
    return words;
  };
  return { inner: pad(0x36), outer: pad(0x5c) };
}

/** HMAC-SHA256(key, UTF-8 of `message`), its first `bytes` bytes (a multiple of 4, at most 32) as hex. */
export function hmacSha256Hex(key: HmacKey, message: string, bytes = 32): string {
  let data = scratch;
  let length = message.length * 3 <= scratch.byteLength ? encoder.encodeInto(message, scratch).written : -1;
  if (length < 0) {
    data = encoder.encode(message);
    length = data.byteLength;
  }
  finish(key.inner, 64, data, length);
  finish(key.outer, 64, stateBytes(scratch), 32);
  let hex = "";
  for (let i = 0; i < bytes / 4; i++) hex += (state[i] >>> 0).toString(16).padStart(8, "0");
  return hex;
}
