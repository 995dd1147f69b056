/**
 * HMAC-SHA256 (RFC 2104, FIPS 180-4) in plain code, for short inputs on a hook's path: loading node:crypto
 * costs a hook more than everything else it does (docs/BENCHMARKS.md), and a hook needs one keyed hash of a
 * path. Everything long is hashed by node:crypto (mac.ts); the tests check both give the same digests.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

function sha256(data: Uint8Array): Uint8Array {
  // The message, a 0x80 byte, zeros, and its length in bits (big-endian) fill whole 64-byte blocks.
  const blocks = Math.ceil((data.length + 9) / 64)
  const m = new Uint8Array(blocks * 64)
  m.set(data)
  m[data.length] = 0x80
  const bits = data.length * 8
  const end = m.length
  m[end - 5] = Math.floor(bits / 2 ** 32) & 0xff
  m[end - 4] = (bits >>> 24) & 0xff
  m[end - 3] = (bits >>> 16) & 0xff
  m[end - 2] = (bits >>> 8) & 0xff
  m[end - 1] = bits & 0xff
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const w = new Uint32Array(64)
  for (let b = 0; b < blocks; b++) {
    const o = b * 64
    for (let i = 0; i < 16; i++) w[i] = (m[o + 4 * i]! << 24) | (m[o + 4 * i + 1]! << 16) | (m[o + 4 * i + 2]! << 8) | m[o + 4 * i + 3]!
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!
      const y = w[i - 2]!
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0
    }
    let a = h[0]!,
      c1 = h[1]!,
      c2 = h[2]!,
      d = h[3]!,
      e = h[4]!,
      f = h[5]!,
      g = h[6]!,
      k = h[7]!
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
      const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
      const t2 = (S0 + ((a & c1) ^ (a & c2) ^ (c1 & c2))) | 0
      k = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c2
      c2 = c1
      c1 = a
      a = (t1 + t2) | 0
    }
    h[0] = (h[0]! + a) | 0
    h[1] = (h[1]! + c1) | 0
    h[2] = (h[2]! + c2) | 0
    h[3] = (h[3]! + d) | 0
    h[4] = (h[4]! + e) | 0
    h[5] = (h[5]! + f) | 0
    h[6] = (h[6]! + g) | 0
    h[7] = (h[7]! + k) | 0
  }
  const out = new Uint8Array(32)
  for (let i = 0; i < 8; i++) {
    out[4 * i] = h[i]! >>> 24
    out[4 * i + 1] = (h[i]! >>> 16) & 0xff
    out[4 * i + 2] = (h[i]! >>> 8) & 0xff
    out[4 * i + 3] = h[i]! & 0xff
  }
  return out
}

/** HMAC-SHA256 of `message` under `key` (keys over 64 bytes are hashed first, as the RFC says), as hex. */
export function hmacSha256Hex(key: Uint8Array, message: Uint8Array): string {
  const k = new Uint8Array(64)
  k.set(key.length > 64 ? sha256(key) : key)
  const inner = new Uint8Array(64 + message.length)
  const outer = new Uint8Array(64 + 32)
  for (let i = 0; i < 64; i++) {
    inner[i] = k[i]! ^ 0x36
    outer[i] = k[i]! ^ 0x5c
  }
  inner.set(message, 64)
  outer.set(sha256(inner), 64)
  let hex = ''
  for (const byte of sha256(outer)) hex += (byte < 16 ? '0' : '') + byte.toString(16)
  return hex
}
