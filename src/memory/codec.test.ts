import { describe, expect, it } from 'vitest'
import { ByteReader, ByteWriter, CodecError, decodePostings, encodePostings } from './codec.js'

const roundTrip = (values: number[]): number[] => {
  const w = new ByteWriter(1)
  for (const v of values) w.varint(v)
  const r = new ByteReader(w.view())
  const out = values.map(() => r.varint())
  expect(r.at).toBe(w.length)
  return out
}

describe('varints', () => {
  it('round-trips the edges of every byte length up to 2^53 - 1', () => {
    const values = [0, 1, 127, 128, 255, 16_383, 16_384, 2 ** 21 - 1, 2 ** 21, 2 ** 28, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 35 + 3]
    values.push(2 ** 42 - 1, 2 ** 49, 2 ** 52 + 12_345, Number.MAX_SAFE_INTEGER)
    expect(roundTrip(values)).toEqual(values)
  })

  it('takes one byte below 128, two below 16,384, eight for 2^53 - 1', () => {
    const size = (v: number): number => {
      const w = new ByteWriter()
      w.varint(v)
      return w.length
    }
    expect([0, 127, 128, 16_383, 16_384, Number.MAX_SAFE_INTEGER].map(size)).toEqual([1, 1, 2, 2, 3, 8])
  })

  it('grows the buffer from its smallest size', () => {
    const values = Array.from({ length: 5_000 }, (_, i) => i * 7_919)
    expect(roundTrip(values)).toEqual(values)
  })

  it('refuses bytes that end inside a varint, and reads nothing past the end', () => {
    const w = new ByteWriter()
    w.varint(300)
    expect(() => new ByteReader(w.view().subarray(0, 1)).varint()).toThrow(CodecError)
    expect(() => new ByteReader(new Uint8Array(0)).varint()).toThrow('varint past the end')
    // `end` bounds the read even when the array goes on.
    expect(() => new ByteReader(w.view(), 0, 1).varint()).toThrow('varint cut short')
    expect(() => new ByteReader(new Uint8Array(9).fill(0xff)).varint()).toThrow('varint too long')
  })
})

describe('posting lists', () => {
  const decode = (bytes: Uint8Array, df: number, base = 0): { docs: number[]; tfs: number[] } => {
    const docs = new Uint32Array(df)
    const tfs = new Uint16Array(df)
    decodePostings(bytes, df, docs, tfs, 0, base)
    return { docs: [...docs], tfs: [...tfs] }
  }
  const encode = (docs: number[], tfs: number[]): Uint8Array => {
    const w = new ByteWriter()
    encodePostings(w, docs, tfs)
    return w.view().slice()
  }

  it('round-trips doc numbers and counts: doc 0, neighbours, large gaps, counts of 1, 2 and 65,535', () => {
    const docs = [0, 1, 2, 130, 131, 50_000, 4_000_000_000]
    const tfs = [1, 2, 1, 65_535, 3, 1, 7]
    expect(decode(encode(docs, tfs), docs.length)).toEqual({ docs, tfs })
  })

  it('spends one byte on a neighbour that occurs once', () => {
    expect(encode([0, 1, 2, 3], [1, 1, 1, 1])).toEqual(new Uint8Array([0, 0, 0, 0]))
    // gap 1, count 2: the count bit set, then 2 - 2
    expect(encode([5, 6], [1, 2])).toEqual(new Uint8Array([10, 1, 0]))
  })

  it('encodes an empty list as no bytes, and a range of a longer list', () => {
    expect(encode([], [])).toEqual(new Uint8Array(0))
    const w = new ByteWriter()
    encodePostings(w, [3, 9, 12, 40], [1, 1, 5, 1], 1, 3)
    expect(decode(w.view(), 2)).toEqual({ docs: [9, 12], tfs: [1, 5] })
  })

  it('adds a base to every doc number (segments merged into one)', () => {
    expect(decode(encode([0, 4], [1, 1]), 2, 1_000)).toEqual({ docs: [1_000, 1_004], tfs: [1, 1] })
  })

  it('refuses doc numbers out of order, and bytes that do not hold the count they claim', () => {
    expect(() => encode([4, 4], [1, 1])).toThrow('postings out of order')
    expect(() => encode([5, 2], [1, 1])).toThrow(CodecError)
    const bytes = encode([1, 2, 3], [1, 1, 1])
    expect(() => decode(bytes, 4)).toThrow(CodecError)
    expect(() => decode(bytes, 2)).toThrow('postings hold more than 2 entries')
  })
})
