/**
 * One piece of the inverted index, as one immutable binary file: the terms (53-bit hashes, sorted), each term's
 * postings (document numbers and term counts), and per document what ranking and filters need without reading
 * the log (time, kind, project, host, length) and where its event is in the log. Opened with one read and
 * typed-array views over it: no parse of an index before the first query.
 */
import { readFileSync } from 'node:fs'
import { atomicWrite } from '../store/atomic.js'
import { EVENT_KINDS, type EventKind } from './events.js'
import type { LogPosition, LoggedEvent } from './log.js'
import { termsOf } from './tokens.js'

const MAGIC = 0x31534d42 // "BMS1"
// Appended only: a segment stores a host as its index here.
const HOSTS = ['claude', 'codex', 'gemini'] as const

export interface SegmentHeader {
  docs: number
  terms: number
  postings: number
  sumLength: number
  projects: string[]
  from: LogPosition
  to: LogPosition
}

export interface Segment {
  header: SegmentHeader
  terms: Float64Array
  starts: Uint32Array
  docIds: Uint32Array
  tfs: Uint16Array
  ts: Float64Array
  logSegment: Uint32Array
  logOffset: Float64Array
  logLength: Uint32Array
  lengths: Uint16Array
  kinds: Uint8Array
  projects: Uint16Array
  hosts: Uint8Array
}

const align8 = (n: number): number => (n + 7) & ~7

/** The index piece of `events`, which the log holds between `from` and `to`. */
export function buildSegment(events: LoggedEvent[], from: LogPosition, to: LogPosition): Buffer {
  const n = events.length
  const postings = new Map<number, number[]>()
  const projectIds = new Map<string, number>()
  const ts = new Float64Array(n)
  const logSegment = new Uint32Array(n)
  const logOffset = new Float64Array(n)
  const logLength = new Uint32Array(n)
  const lengths = new Uint16Array(n)
  const kinds = new Uint8Array(n)
  const projects = new Uint16Array(n)
  const hosts = new Uint8Array(n)
  let sumLength = 0
  let total = 0
  for (let d = 0; d < n; d++) {
    const { event, segment, offset, length } = events[d]!
    const { tf, length: dl } = termsOf(event.text, event.paths ?? [])
    for (const [h, c] of tf) {
      let list = postings.get(h)
      if (list === undefined) postings.set(h, (list = []))
      list.push(d, Math.min(c, 0xffff))
      total++
    }
    const t = event.ts !== undefined ? Date.parse(event.ts) : NaN
    ts[d] = Number.isFinite(t) ? t : 0
    logSegment[d] = segment
    logOffset[d] = offset
    logLength[d] = length
    lengths[d] = Math.min(dl, 0xffff)
    sumLength += lengths[d]!
    kinds[d] = Math.max(0, EVENT_KINDS.indexOf(event.kind as EventKind))
    let p = projectIds.get(event.project)
    if (p === undefined) {
      p = projectIds.size
      if (p > 0xffff) p = 0xffff
      else projectIds.set(event.project, p)
    }
    projects[d] = p
    hosts[d] = Math.max(0, HOSTS.indexOf(event.host))
  }
  const hashes = Float64Array.from(postings.keys()).sort()
  const starts = new Uint32Array(hashes.length + 1)
  const docIds = new Uint32Array(total)
  const tfs = new Uint16Array(total)
  let at = 0
  for (let i = 0; i < hashes.length; i++) {
    starts[i] = at
    const list = postings.get(hashes[i]!)!
    for (let j = 0; j < list.length; j += 2) {
      docIds[at] = list[j]!
      tfs[at] = list[j + 1]!
      at++
    }
  }
  starts[hashes.length] = at
  const header: SegmentHeader = { docs: n, terms: hashes.length, postings: total, sumLength, projects: [...projectIds.keys()], from, to }
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8')
  const parts: ArrayBufferView[] = [hashes, starts, docIds, tfs, ts, logSegment, logOffset, logLength, lengths, kinds, projects, hosts]
  const size = align8(8 + headerBytes.length) + parts.reduce((s, p) => s + align8(p.byteLength), 0)
  const out = Buffer.alloc(size)
  out.writeUInt32LE(MAGIC, 0)
  out.writeUInt32LE(headerBytes.length, 4)
  headerBytes.copy(out, 8)
  let pos = align8(8 + headerBytes.length)
  for (const p of parts) {
    out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), pos)
    pos += align8(p.byteLength)
  }
  return out
}

export async function writeSegment(path: string, data: Buffer): Promise<void> {
  await atomicWrite(path, data, { mode: 0o600, durable: false })
}

/** Opens a segment file; throws when it is not one. */
export function openSegment(path: string): Segment {
  let buf = readFileSync(path)
  if (buf.byteOffset % 8 !== 0) buf = Buffer.from(buf) // typed-array views need aligned offsets
  if (buf.length < 8 || buf.readUInt32LE(0) !== MAGIC) throw new Error(`${path} is not an index segment`)
  const headerLength = buf.readUInt32LE(4)
  const header = JSON.parse(buf.toString('utf8', 8, 8 + headerLength)) as SegmentHeader
  let pos = buf.byteOffset + align8(8 + headerLength)
  const take = <T>(make: (b: ArrayBuffer, o: number, n: number) => T, count: number, width: number): T => {
    if (pos - buf.byteOffset + count * width > buf.length) throw new Error(`${path} is cut short`)
    const v = make(buf.buffer as ArrayBuffer, pos, count)
    pos += align8(count * width)
    return v
  }
  const { docs, terms, postings } = header
  return {
    header,
    terms: take((b, o, n) => new Float64Array(b, o, n), terms, 8),
    starts: take((b, o, n) => new Uint32Array(b, o, n), terms + 1, 4),
    docIds: take((b, o, n) => new Uint32Array(b, o, n), postings, 4),
    tfs: take((b, o, n) => new Uint16Array(b, o, n), postings, 2),
    ts: take((b, o, n) => new Float64Array(b, o, n), docs, 8),
    logSegment: take((b, o, n) => new Uint32Array(b, o, n), docs, 4),
    logOffset: take((b, o, n) => new Float64Array(b, o, n), docs, 8),
    logLength: take((b, o, n) => new Uint32Array(b, o, n), docs, 4),
    lengths: take((b, o, n) => new Uint16Array(b, o, n), docs, 2),
    kinds: take((b, o, n) => new Uint8Array(b, o, n), docs, 1),
    projects: take((b, o, n) => new Uint16Array(b, o, n), docs, 2),
    hosts: take((b, o, n) => new Uint8Array(b, o, n), docs, 1),
  }
}

/** The postings range of a term hash in `seg`, or undefined. */
export function findTerm(seg: Segment, hash: number): { start: number; end: number } | undefined {
  let lo = 0
  let hi = seg.terms.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const v = seg.terms[mid]!
    if (v === hash) return { start: seg.starts[mid]!, end: seg.starts[mid + 1]! }
    if (v < hash) lo = mid + 1
    else hi = mid - 1
  }
  return undefined
}

export const HOST_NAMES = HOSTS
