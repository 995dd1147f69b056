import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/tmp.js'
import { decodePostings } from './codec.js'
import type { SearchEvent } from './events.js'
import type { LoggedEvent } from './log.js'
import { allTerms, findTerm, hostName, kindOf, openSegment, placeOf, segmentFromBuffer, type Segment } from './segment.js'
import { makeKernel } from './score-wasm.js'
import { buildSegment, mergeSegments } from './segment-build.js'
import { termHash, termsOf } from './tokens.js'

const event = (i: number, text: string, extra: Partial<SearchEvent> = {}): SearchEvent => ({
  id: i.toString(16).padStart(12, '0'),
  kind: 'request',
  ts: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  project: i % 2 === 0 ? '/w/app' : '/w/lib',
  session: 's1',
  host: 'claude',
  text,
  transcript: '/t.jsonl',
  line: i + 1,
  ...extra,
})

/** Events as the log would hold them, one after the other in log segment `segment` from `offset`. */
function logged(events: SearchEvent[], segment = 0, offset = 0): LoggedEvent[] {
  let at = offset
  return events.map((e) => {
    const length = Buffer.byteLength(JSON.stringify(e))
    const out = { event: e, segment, offset: at, length }
    at += length + 1
    return out
  })
}

const postings = (seg: Segment, term: string, exact = false): { docs: number[]; tfs: number[] } | undefined => {
  const t = findTerm(seg, termHash(term, exact))
  if (!t) return undefined
  const docs = new Uint32Array(t.df)
  const tfs = new Uint16Array(t.df)
  decodePostings(t.bytes, t.df, docs, tfs)
  return { docs: [...docs], tfs: [...tfs] }
}

const TEXTS = [
  'fix the resume.go parser',
  'the parser fails on resume resume resume',
  'deploy the staging cluster',
  'parseLine returns nothing for src/cmd/resume.go',
]

describe('index segments', () => {
  it('finds every term with its documents and counts, read lazily from the file', () => {
    const events = logged(TEXTS.map((t, i) => event(i, t, i === 2 ? { kind: 'commit', host: 'codex' } : {})))
    const dir = tempDir('bm-seg-')
    const path = join(dir, 'seg.bin')
    writeFileSync(path, buildSegment(events, { segment: 0, offset: 0 }, { segment: 0, offset: 999 }))
    const seg = openSegment(path)
    try {
      expect(seg.header).toMatchObject({ docs: 4, projects: ['/w/app', '/w/lib'], from: { segment: 0, offset: 0 }, to: { segment: 0, offset: 999 } })
      expect(postings(seg, 'resume')).toEqual({ docs: [0, 1, 3], tfs: [1, 3, 1] })
      expect(postings(seg, 'resume.go', true)).toEqual({ docs: [0, 3], tfs: [1, 1] })
      expect(postings(seg, 'src/cmd/resume.go', true)).toEqual({ docs: [3], tfs: [1] })
      expect(postings(seg, 'resume.go')).toBeUndefined() // the word channel has no such term
      expect(postings(seg, 'absent')).toBeUndefined()
      expect([...seg.projects]).toEqual([0, 1, 0, 1])
      expect(seg.header.spans).toEqual([0, 2, 1, 3]) // each project's first and last document
      expect([kindOf(seg.kinds[2]!), hostName(seg.kinds[2]!)]).toEqual(['commit', 'codex'])
      expect([kindOf(seg.kinds[0]!), hostName(seg.kinds[0]!)]).toEqual(['request', 'claude'])
      expect(seg.ts[1]).toBe(Date.UTC(2026, 0, 1) + 60_000)
      expect(seg.lengths[1]).toBe(termsOf(TEXTS[1]!).length)
      // Where each event is: its offset, and room up to the next one (the reader cuts at the newline).
      for (const [d, e] of events.entries()) expect(placeOf(seg, d)).toEqual({ segment: 0, offset: e.offset, length: e.length + 1 })
    } finally {
      seg.close()
    }
  })

  it('finds terms in every dictionary block of a segment with thousands of terms', () => {
    const texts = Array.from({ length: 600 }, (_, i) => `word${i} shared w${i % 7}x and term${i * 3} term${i * 3 + 1}`)
    const seg = segmentFromBuffer(buildSegment(logged(texts.map((t, i) => event(i, t))), { segment: 0, offset: 0 }, { segment: 0, offset: 1 }))
    expect(seg.header.terms).toBeGreaterThan(1_800)
    expect(seg.header.blocks).toBe(Math.ceil(seg.header.terms / 64))
    for (const i of [0, 1, 63, 64, 65, 299, 598, 599]) expect(postings(seg, `word${i}`)).toEqual({ docs: [i], tfs: [1] })
    expect(postings(seg, 'shared')?.docs).toHaveLength(600)
    expect(postings(seg, 'w3x')?.docs).toEqual(Array.from({ length: 600 }, (_, i) => i).filter((i) => i % 7 === 3))
    const all = [...allTerms(seg)]
    expect(all).toHaveLength(seg.header.terms)
    expect(all.every((t, i) => i === 0 || t.hash > all[i - 1]!.hash)).toBe(true)
  })

  it("finds with the kernel's scan of a dictionary block what the JavaScript finds, and leaves damaged bytes to it", () => {
    const texts = Array.from({ length: 600 }, (_, i) => `word${i} shared w${i % 7}x and term${i * 3} term${i * 3 + 1}`)
    const seg = segmentFromBuffer(buildSegment(logged(texts.map((t, i) => event(i, t))), { segment: 0, offset: 0 }, { segment: 0, offset: 1 }))
    const L = seg.header.layout
    const kernel = makeKernel(seg.header.docs, L.size - L.postings, false)!
    const plain = (hash: number) => {
      const t = findTerm(seg, hash)
      return t && { df: t.df, length: t.length, at: t.at, bytes: [...t.bytes] }
    }
    const scanned = (hash: number) => {
      const t = findTerm(seg, hash, kernel.find)
      return t && { df: t.df, length: t.length, at: t.at, bytes: [...t.bytes] }
    }
    const hashes = [...allTerms(seg)].map((t) => t.hash)
    for (const h of hashes) expect(scanned(h)).toEqual(plain(h))
    // Absent: before the first term, between two, past the last.
    for (const h of [0, hashes[0]! - 1, hashes[100]! + 1, hashes[hashes.length - 1]! + 1]) {
      expect(plain(h)).toBeUndefined()
      expect(scanned(h)).toBeUndefined()
    }
    // A block the JavaScript rejects (a varint past the block's end, one of nine bytes), or too long for the kernel's
    // room: left to the JavaScript, which says what is wrong.
    const bytesOf = (b: Uint8Array) => ({ readInto: (at: number, n: number, into: Uint8Array, o: number) => into.set(b.subarray(at, at + n), o) })
    const src = { ...bytesOf(Uint8Array.of(0x05, 0x81)), columnInto: () => undefined }
    expect(kernel.find(src, 0, 2, 100, 105, 0)).toBeUndefined()
    const long = { ...bytesOf(Uint8Array.of(0x00, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x01)), columnInto: () => undefined }
    expect(kernel.find(long, 0, 10, 100, 105, 0)).toBeUndefined()
    expect(kernel.find(src, 0, 1 << 20, 100, 105, 0)).toBeUndefined()
    const fine = { ...bytesOf(Uint8Array.of(0x00, 0x02, 0x07, 0x05, 0x01, 0x04)), columnInto: () => undefined }
    expect(kernel.find(fine, 0, 6, 100, 105, 40)).toEqual({ df: 1, length: 4, at: 47 })
    expect(kernel.find(fine, 0, 6, 100, 104, 40)).toBeNull()
  })

  it('reads the columns of a segment larger than its first read on first use, as the whole file holds them', () => {
    const texts = Array.from({ length: 6000 }, (_, i) => `word${i} shared w${i % 7}x`)
    const bytes = buildSegment(
      logged(texts.map((t, i) => event(i, t, { kind: i % 3 === 0 ? 'commit' : 'request' }))),
      { segment: 0, offset: 0 },
      { segment: 0, offset: 1 },
    )
    const path = join(tempDir('bm-seg-'), 'big.bin')
    writeFileSync(path, bytes)
    const whole = segmentFromBuffer(bytes)
    const seg = openSegment(path)
    try {
      expect(seg.header.layout.ts).toBeLessThan(64 * 1024) // the first column starts in the first read, the rest past it
      expect(seg.header.layout.kinds).toBeGreaterThan(64 * 1024)
      // Read into another array (the kernel's memory), and cell by cell, before and after the column is read whole.
      for (const column of ['ts', 'lengths', 'projects', 'kinds'] as const) {
        const into = new Uint8Array(whole[column].byteLength + 8)
        seg.columnInto(column, into)
        expect([...into.subarray(0, whole[column].byteLength)]).toEqual([
          ...new Uint8Array(whole[column].buffer, whole[column].byteOffset, whole[column].byteLength),
        ])
        const short = new Uint8Array(5)
        seg.columnInto(column, short)
        expect([...short]).toEqual([...into.subarray(0, 5)])
      }
      for (const d of [0, 1, 511, 512, 4097, 4098, 5999, 3]) {
        expect(seg.cell('offsets', d)).toBe(whole.offsets[d])
        expect(seg.cell('kinds', d)).toBe(whole.kinds[d])
      }
      expect(seg.cell('kinds', 6000)).toBeUndefined()
      for (const column of ['ts', 'offsets', 'lengths', 'projects', 'kinds', 'skip', 'skipAt'] as const) expect([...seg[column]]).toEqual([...whole[column]])
      expect(seg.cell('kinds', 5999)).toBe(whole.kinds[5999])
      expect(seg.ts).toBe(seg.ts) // read once
      expect(postings(seg, 'word5999')).toEqual({ docs: [5999], tfs: [1] })
    } finally {
      seg.close()
    }
  })

  it('keeps documents of two log segments apart, and an event ends where its run ends', () => {
    const a = logged([event(0, 'alpha one'), event(1, 'alpha two')], 3, 100)
    const b = logged([event(2, 'alpha three')], 4, 0)
    const seg = segmentFromBuffer(buildSegment([...a, ...b], { segment: 3, offset: 100 }, { segment: 4, offset: b[0]!.length + 1 }))
    expect(seg.header.runs).toEqual([
      { segment: 3, first: 0, end: a[1]!.offset + a[1]!.length + 1 },
      { segment: 4, first: 2, end: b[0]!.length + 1 },
    ])
    expect(placeOf(seg, 1)).toEqual({ segment: 3, offset: a[1]!.offset, length: a[1]!.length + 1 })
    expect(placeOf(seg, 2)).toEqual({ segment: 4, offset: 0, length: b[0]!.length + 1 })
  })

  it('merges segments into one that answers as they did, doc numbers following on', () => {
    const first = logged(TEXTS.slice(0, 2).map((t, i) => event(i, t)))
    const second = logged(
      TEXTS.slice(2).map((t, i) => event(i + 2, t, { project: '/w/other' })),
      0,
      first[1]!.offset + first[1]!.length + 1,
    )
    const end = (l: LoggedEvent[]) => ({ segment: 0, offset: l[l.length - 1]!.offset + l[l.length - 1]!.length + 1 })
    const segA = segmentFromBuffer(buildSegment(first, { segment: 0, offset: 0 }, end(first)))
    const segB = segmentFromBuffer(buildSegment(second, end(first), end(second)))
    const merged = segmentFromBuffer(mergeSegments([segA, segB]))
    const whole = segmentFromBuffer(buildSegment([...first, ...second], { segment: 0, offset: 0 }, end(second)))
    expect(merged.header).toMatchObject({ docs: 4, terms: whole.header.terms, postings: whole.header.postings, sumLength: whole.header.sumLength })
    expect(merged.header.projects).toEqual(['/w/app', '/w/lib', '/w/other'])
    expect([...merged.projects]).toEqual([0, 1, 2, 2])
    for (const term of ['resume', 'parser', 'staging', 'parseline']) expect(postings(merged, term)).toEqual(postings(whole, term))
    expect(postings(merged, 'resume.go', true)).toEqual({ docs: [0, 3], tfs: [1, 1] })
    for (let d = 0; d < 4; d++) expect(placeOf(merged, d)).toEqual(placeOf(whole, d))
    expect([...merged.ts]).toEqual([...whole.ts])
  })

  it('refuses a file that is not a segment, or one cut short', () => {
    const dir = tempDir('bm-seg-')
    const junk = join(dir, 'junk.bin')
    writeFileSync(junk, 'not a segment at all')
    expect(() => openSegment(junk)).toThrow('is not an index segment')
    const data = buildSegment(logged(TEXTS.map((t, i) => event(i, t))), { segment: 0, offset: 0 }, { segment: 0, offset: 1 })
    expect(() => segmentFromBuffer(data.subarray(0, data.length - 16))).toThrow('cut short')
  })
})
