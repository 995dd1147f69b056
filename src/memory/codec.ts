/**
 * The byte codes of an index segment, pure: unsigned LEB128 varints (7 bits a byte, low first) up to 2^53,
 * and a posting list as varints of doc-number gaps with the term count folded in:
 * `(doc - previous - 1) * 2 + (tf > 1)`, then `tf - 2` when that bit is set (most terms occur once in an event).
 * Postings are stored per term in doc order, so gaps are small and most postings take one or two bytes.
 */

/** A growable byte buffer. */
export class ByteWriter {
  bytes: Uint8Array
  length = 0

  constructor(capacity = 1024) {
    this.bytes = new Uint8Array(Math.max(16, capacity))
  }

  private grow(need: number): void {
    let size = this.bytes.length * 2
    while (size < this.length + need) size *= 2
    const next = new Uint8Array(size)
    next.set(this.bytes.subarray(0, this.length))
    this.bytes = next
  }

  /** Appends `v`, a whole number from 0 to 2^53 - 1. */
  varint(v: number): void {
    if (this.length + 8 > this.bytes.length) this.grow(8)
    const b = this.bytes
    let at = this.length
    while (v >= 0x80) {
      b[at++] = (v % 0x80) | 0x80
      v = Math.floor(v / 0x80)
    }
    b[at++] = v
    this.length = at
  }

  /** The bytes written so far (a view, valid until the next write). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length)
  }
}

export class CodecError extends Error {}

/** Reads varints from `bytes` between `at` and `end`. */
export class ByteReader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
    readonly end = bytes.length,
  ) {}

  varint(): number {
    const b = this.bytes
    let at = this.at
    let byte = at < this.end ? b[at++]! : -1
    if (byte < 0) throw new CodecError('varint past the end')
    let v = byte & 0x7f
    let scale = 0x80
    while (byte & 0x80) {
      if (at >= this.end) throw new CodecError('varint cut short')
      if (scale > 2 ** 49) throw new CodecError('varint too long')
      byte = b[at++]!
      v += (byte & 0x7f) * scale
      scale *= 0x80
    }
    this.at = at
    return v
  }
}

/** Appends the postings `docs[from..to)` (ascending doc numbers) with their counts. */
export function encodePostings(out: ByteWriter, docs: ArrayLike<number>, tfs: ArrayLike<number>, from = 0, to = docs.length): void {
  let prev = -1
  for (let i = from; i < to; i++) {
    const d = docs[i]!
    const tf = tfs[i]!
    if (d <= prev) throw new CodecError(`postings out of order: ${d} after ${prev}`)
    const gap = d - prev - 1
    prev = d
    if (tf > 1) {
      out.varint(gap * 2 + 1)
      out.varint(tf - 2)
    } else out.varint(gap * 2)
  }
}

/**
 * Decodes a posting list into `docs` and `tfs` from index `into` on (they must have room for `df` postings);
 * `base` is added to every doc number (segments merged into one). Throws on bytes that do not hold `df` postings.
 */
export function decodePostings(bytes: Uint8Array, df: number, docs: Uint32Array, tfs: Uint16Array, into = 0, base = 0): void {
  const r = new ByteReader(bytes)
  let prev = -1
  for (let i = 0; i < df; i++) {
    const v = r.varint()
    const d = prev + 1 + Math.floor(v / 2)
    prev = d
    docs[into + i] = d + base
    tfs[into + i] = v % 2 === 1 ? r.varint() + 2 : 1
  }
  if (r.at !== bytes.length) throw new CodecError(`postings hold more than ${df} entries`)
}
