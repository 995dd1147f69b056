/**
 * How a cursor remembers bytes of the transcript (its first bytes, the bytes before its offset) to tell a file
 * that was rewritten from one that only grew: their count and a 64-bit hash, `<count>:<16 hex>`, never the bytes.
 * They were kept as hex until this version, and the last line of a transcript can be what the user typed (a
 * message queued while the model worked): the cursor file held up to 64 bytes of it, past the redactor. A
 * cursor written before still holds hex, which is compared as it is until its next capture rewrites it.
 * The hash is FNV-1a in two 32-bit lanes with different primes: a check against accidental change, not a seal.
 */
export function fingerprint(bytes: Uint8Array): string {
  if (bytes.length === 0) return ''
  let a = 0x811c9dc5
  let b = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return `${bytes.length}:${hex32(a)}${hex32(b)}`
}

const hex32 = (n: number): string => (n >>> 0).toString(16).padStart(8, '0')

/** The number of bytes `kept` (a fingerprint, or hex from an older cursor) describes. */
export function keptLength(kept: string): number {
  const colon = kept.indexOf(':')
  if (colon === -1) return Math.floor(kept.length / 2)
  const n = Number(kept.slice(0, colon))
  return Number.isSafeInteger(n) && n >= 0 ? n : -1
}

/** Whether `bytes` (as many as `keptLength(kept)`, read where they were) are the ones `kept` was made from. */
export function sameBytes(kept: string, bytes: Uint8Array): boolean {
  if (bytes.length !== keptLength(kept)) return false
  return kept.includes(':') ? fingerprint(bytes) === kept : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex') === kept
}
