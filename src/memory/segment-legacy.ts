/**
 * Format 1 segments ("BMS1", written before format 2): one flat array of uint32 document numbers and one of
 * uint16 counts for all postings, and per document its log segment, offset and length. Read whole and encoded
 * again as format 2, in memory when a search meets one, on disk when the index catches up (indexer.ts).
 */
import { EVENT_KINDS } from './kinds.js'
import { MAGIC_V1, encodeSegment, kindCode, HOST_NAMES } from './segment.js'
import { runsOf } from './segment-build.js'
import type { LogPosition } from './log.js'

interface HeaderV1 {
  docs: number
  terms: number
  postings: number
  projects: string[]
  from: LogPosition
  to: LogPosition
}

const align8 = (n: number): number => (n + 7) & ~7

/** The format 2 bytes of a format 1 segment file; throws when `file` is not a whole format 1 segment. */
export function convertLegacy(file: Buffer, path: string): Buffer {
  const buf = file.byteOffset % 8 === 0 ? file : Buffer.from(file)
  if (buf.length < 8 || buf.readUInt32LE(0) !== MAGIC_V1) throw new Error(`${path} is not a format 1 index segment`)
  const headerLength = buf.readUInt32LE(4)
  const header = JSON.parse(buf.toString('utf8', 8, 8 + headerLength)) as HeaderV1
  let pos = buf.byteOffset + align8(8 + headerLength)
  const take = <T>(make: new (b: ArrayBuffer, o: number, n: number) => T, count: number, width: number): T => {
    if (pos - buf.byteOffset + count * width > buf.length) throw new Error(`${path} is cut short`)
    const v = new make(buf.buffer as ArrayBuffer, pos, count)
    pos += align8(count * width)
    return v
  }
  const { docs, terms, postings } = header
  const hashes = take(Float64Array, terms, 8)
  const starts = take(Uint32Array, terms + 1, 4)
  const docIds = take(Uint32Array, postings, 4)
  const tfs = take(Uint16Array, postings, 2)
  const ts = take(Float64Array, docs, 8)
  const logSegment = take(Uint32Array, docs, 4)
  const logOffset = take(Float64Array, docs, 8)
  const logLength = take(Uint32Array, docs, 4)
  const lengths = take(Uint16Array, docs, 2)
  const kinds = take(Uint8Array, docs, 1)
  const projects = take(Uint16Array, docs, 2)
  const hosts = take(Uint8Array, docs, 1)
  const ends = new Float64Array(docs)
  const codes = new Uint8Array(docs)
  for (let d = 0; d < docs; d++) {
    ends[d] = logOffset[d]! + logLength[d]! + 1
    codes[d] = kindCode(EVENT_KINDS[kinds[d]!] ?? 'tool', HOST_NAMES[hosts[d]!] ?? 'claude')
  }
  return encodeSegment({
    from: header.from,
    to: header.to,
    projects: header.projects,
    runs: runsOf(logSegment, ends),
    ts: Float64Array.from(ts),
    offsets: logOffset,
    lengths: Uint16Array.from(lengths),
    projectIds: Uint16Array.from(projects),
    kinds: codes,
    hashes: Float64Array.from(hashes),
    starts: Uint32Array.from(starts),
    docs: Uint32Array.from(docIds),
    tfs: Uint16Array.from(tfs),
  })
}
