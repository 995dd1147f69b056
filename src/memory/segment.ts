/**
 * One piece of the inverted index, as one immutable binary file (format 2, "BMS2"):
 *
 *   magic, header length, header (JSON: counts, projects, the log range, where each section starts)
 *   per document: time (float64 ms), offset of its event in the log (uint32, float64 past 4 GB),
 *     BM25 length (uint16), project (uint16), kind and host (uint8: kind | host << 4)
 *   term blocks: the first hash of every BLOCK terms (float64) and where the block starts in the dictionary
 *     and in the postings (uint32 pairs)
 *   dictionary: per term, varints of its hash's distance from the previous one (53-bit hashes, sorted; 0 for
 *     a block's first), its document count and the byte length of its postings
 *   postings: per term, codec.ts's gap-and-count varints
 *
 * Opening reads the header, the per-document columns and the block table (one read); a query term then costs
 * a binary search in the block table, one read of a dictionary block and one of its postings. Nothing is
 * parsed before the first query, and no byte of a posting list the query does not ask for is read.
 * An event's length in the log is not stored: it ends where the next document's event starts (or at its
 * run's end), and a reader cuts at the first newline (a torn line skipped between them holds no event).
 * Format 1 files (one flat uint32/uint16 posting array, written before) are converted: segment-legacy.ts.
 */
import { closeSync, openSync, readSync } from 'node:fs'
import { ByteReader, ByteWriter, encodePostings } from './codec.js'
import { EVENT_KINDS, type EventKind } from './kinds.js'
import type { LogPosition } from './log.js'

export const MAGIC = 0x32534d42 // "BMS2"
export const MAGIC_V1 = 0x31534d42 // "BMS1"
/** Terms per dictionary block: a lookup decodes at most this many entries. */
const BLOCK = 64
/** Cells of a column read together for one document's value (segment `cell`). */
const CELL_PAGE = 512
/** What the first read of a segment asks for: its header and usually all it needs before the dictionary. */
const FIRST_READ = 64 * 1024
// Appended only: a segment stores a host as its index here.
export const HOST_NAMES = ['claude', 'codex', 'gemini'] as const

/** A run of documents whose events are in one log segment: from doc `first` on; the run's last event ends at `end`. */
export interface Run {
  segment: number
  first: number
  end: number
}

interface Layout {
  ts: number
  offsets: number
  lengths: number
  projects: number
  kinds: number
  skip: number
  skipAt: number
  dict: number
  /** The dictionary's bytes (the section is padded). */
  dictLength: number
  postings: number
  size: number
  /** 4, or 8 when an offset does not fit 32 bits. */
  offsetWidth: 4 | 8
}

export interface SegmentHeader {
  version: 2
  docs: number
  terms: number
  /** Postings in all lists. */
  postings: number
  blocks: number
  sumLength: number
  projects: string[]
  /** Per project (by number), the first and last document of it: orientation scans only that stretch. */
  spans?: number[]
  from: LogPosition
  to: LogPosition
  runs: Run[]
  layout: Layout
}

export interface Segment {
  header: SegmentHeader
  ts: Float64Array
  offsets: Uint32Array | Float64Array
  lengths: Uint16Array
  projects: Uint16Array
  /** Kind (low 4 bits, EVENT_KINDS) and host (high bits, HOST_NAMES). */
  kinds: Uint8Array
  skip: Float64Array
  skipAt: Uint32Array
  /** `length` bytes of the file from `at`. */
  read(at: number, length: number): Uint8Array
  /** `length` bytes of the file from `at`, into `into` from `offset` (the scoring kernel's memory: score-wasm.ts). */
  readInto(at: number, length: number, into: Uint8Array, offset: number): void
  /** A per-document column's bytes, into `into` (at most its length), without making the column's own array. */
  columnInto(name: ColumnName, into: Uint8Array): void
  /** Document `d`'s value in a column, read alone unless the column is at hand (a search reads its few hits); undefined past the last. */
  cell(name: 'offsets' | 'kinds', d: number): number | undefined
  close(): void
}

export type ColumnName = 'ts' | 'lengths' | 'projects' | 'kinds'

/** What a segment is made of before encoding: the per-document columns and the sorted terms with their postings. */
export interface SegmentParts {
  from: LogPosition
  to: LogPosition
  projects: string[]
  runs: Run[]
  ts: Float64Array
  offsets: ArrayLike<number>
  lengths: Uint16Array
  projectIds: Uint16Array
  kinds: Uint8Array
  /** Sorted term hashes; term t's postings are docs/tfs[starts[t] .. starts[t + 1]). */
  hashes: Float64Array
  starts: Uint32Array
  docs: Uint32Array
  tfs: Uint16Array
}

const align8 = (n: number): number => (n + 7) & ~7

export const kindCode = (kind: string, host: string): number =>
  Math.max(0, EVENT_KINDS.indexOf(kind as EventKind)) | (Math.max(0, (HOST_NAMES as readonly string[]).indexOf(host)) << 4)
export const kindOf = (code: number): EventKind => EVENT_KINDS[code & 0x0f] ?? 'tool'
export const hostName = (code: number): string | undefined => HOST_NAMES[code >> 4]

/** The segment file of `parts`. */
export function encodeSegment(parts: SegmentParts): Buffer {
  const docs = parts.ts.length
  const terms = parts.hashes.length
  const blocks = Math.ceil(terms / BLOCK)
  const dict = new ByteWriter(terms * 8)
  const postings = new ByteWriter(parts.docs.length * 2)
  const skip = new Float64Array(blocks)
  const skipAt = new Uint32Array(blocks * 2)
  let prev = 0
  for (let t = 0; t < terms; t++) {
    const h = parts.hashes[t]!
    if (t % BLOCK === 0) {
      const b = t / BLOCK
      skip[b] = h
      skipAt[b * 2] = dict.length
      skipAt[b * 2 + 1] = postings.length
      prev = h
    } else if (h <= prev) throw new Error('segment terms out of order')
    const start = postings.length
    encodePostings(postings, parts.docs, parts.tfs, parts.starts[t]!, parts.starts[t + 1]!)
    dict.varint(h - prev)
    dict.varint(parts.starts[t + 1]! - parts.starts[t]!)
    dict.varint(postings.length - start)
    prev = h
  }
  let sumLength = 0
  for (let d = 0; d < docs; d++) sumLength += parts.lengths[d]!
  const spans: number[] = parts.projects.flatMap(() => [docs, -1])
  for (let d = 0; d < docs; d++) {
    const p = parts.projectIds[d]!
    if (p * 2 >= spans.length) continue
    if (spans[p * 2]! > d) spans[p * 2] = d
    spans[p * 2 + 1] = d
  }
  let maxOffset = 0
  for (let d = 0; d < docs; d++) maxOffset = Math.max(maxOffset, parts.offsets[d]!)
  const offsetWidth: 4 | 8 = maxOffset > 0xffffffff ? 8 : 4
  const offsets = offsetWidth === 8 ? Float64Array.from(parts.offsets) : Uint32Array.from(parts.offsets)
  const sections: ArrayBufferView[] = [parts.ts, offsets, parts.lengths, parts.projectIds, parts.kinds, skip, skipAt, dict.view(), postings.view()]
  const header: SegmentHeader = {
    version: 2,
    docs,
    terms,
    postings: parts.docs.length,
    blocks,
    sumLength,
    projects: parts.projects,
    spans,
    from: parts.from,
    to: parts.to,
    runs: parts.runs,
    layout: { ts: 0, offsets: 0, lengths: 0, projects: 0, kinds: 0, skip: 0, skipAt: 0, dict: 0, dictLength: dict.length, postings: 0, size: 0, offsetWidth },
  }
  // The header holds the layout, whose numbers depend on the header's length: lay out until it holds still
  // (lengths only grow from pass to pass, by a digit at most, so this ends in two or three passes).
  let headerBytes = Buffer.alloc(0)
  for (let pass = 0; ; pass++) {
    if (pass > 16) throw new Error('segment header does not settle')
    let at = align8(8 + headerBytes.length)
    const places = sections.map((s) => {
      const p = at
      at += align8(s.byteLength)
      return p
    })
    const [ts, offs, lengths, projects, kinds, sk, skAt, di, po] = places as [number, number, number, number, number, number, number, number, number]
    header.layout = {
      ts,
      offsets: offs,
      lengths,
      projects,
      kinds,
      skip: sk,
      skipAt: skAt,
      dict: di,
      dictLength: dict.length,
      postings: po,
      size: at,
      offsetWidth,
    }
    const next = Buffer.from(JSON.stringify(header), 'utf8')
    const settled = next.length === headerBytes.length
    headerBytes = next
    if (settled) break
  }
  const out = Buffer.alloc(header.layout.size)
  out.writeUInt32LE(MAGIC, 0)
  out.writeUInt32LE(headerBytes.length, 4)
  headerBytes.copy(out, 8)
  const places = [header.layout.ts, header.layout.offsets, header.layout.lengths, header.layout.projects, header.layout.kinds]
  places.push(header.layout.skip, header.layout.skipAt, header.layout.dict, header.layout.postings)
  sections.forEach((s, i) => out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), places[i]!))
  return out
}

class SegmentFormatError extends Error {}

/** Thrown by openSegment for a format 1 file, with its bytes (segment-legacy.ts converts them). */
export class LegacySegment extends Error {
  constructor(readonly file: Buffer) {
    super('a format 1 index segment')
  }
}

/** Typed-array views of a segment's columns and block table in `head` (its bytes from 0 up to the dictionary). */
function viewsOf(header: SegmentHeader, head: ArrayBuffer, path: string): Omit<Segment, 'header' | 'read' | 'readInto' | 'columnInto' | 'cell' | 'close'> {
  const L = header.layout
  const { docs, blocks } = header
  const view = <T>(make: new (b: ArrayBuffer, o: number, n: number) => T, at: number, count: number, width: number): T => {
    if (at % width !== 0 || at + count * width > head.byteLength) throw new SegmentFormatError(`${path}: a damaged index segment`)
    return new make(head, at, count)
  }
  return {
    ts: view(Float64Array, L.ts, docs, 8),
    offsets: L.offsetWidth === 8 ? view(Float64Array, L.offsets, docs, 8) : view(Uint32Array, L.offsets, docs, 4),
    lengths: view(Uint16Array, L.lengths, docs, 2),
    projects: view(Uint16Array, L.projects, docs, 2),
    kinds: view(Uint8Array, L.kinds, docs, 1),
    skip: view(Float64Array, L.skip, blocks, 8),
    skipAt: view(Uint32Array, L.skipAt, blocks * 2, 4),
  }
}

function parseHeader(first: Uint8Array, length: number, path: string): SegmentHeader {
  const dv = new DataView(first.buffer, first.byteOffset, length)
  const n = dv.getUint32(4, true)
  if (8 + n > length) throw new SegmentFormatError(`${path}: the index segment's header is cut short`)
  const header = JSON.parse(Buffer.from(first.buffer, first.byteOffset + 8, n).toString('utf8')) as SegmentHeader
  if (header?.version !== 2 || !header.layout || !Array.isArray(header.runs)) throw new SegmentFormatError(`${path}: not an index segment`)
  return header
}

/** A segment held whole in memory (a converted format 1 file, or one just built). */
export function segmentFromBuffer(buf: Uint8Array, path = 'segment'): Segment {
  const own = buf.byteOffset % 8 === 0 ? buf : Uint8Array.from(buf) // typed-array views need aligned offsets
  if (own.length < 8 || new DataView(own.buffer, own.byteOffset).getUint32(0, true) !== MAGIC) throw new SegmentFormatError(`${path}: not an index segment`)
  const header = parseHeader(own, own.length, path)
  if (header.layout.size > own.length) throw new SegmentFormatError(`${path}: the index segment is cut short`)
  const head = own.byteOffset === 0 && own.buffer.byteLength === own.length ? own.buffer : own.slice().buffer
  const views = viewsOf(header, head as ArrayBuffer, path)
  return {
    header,
    ...views,
    read: (at, length) => own.subarray(at, at + length),
    readInto: (at, length, into, offset) => into.set(own.subarray(at, at + length), offset),
    columnInto: (name, into) => {
      const v = views[name]
      into.set(new Uint8Array(v.buffer, v.byteOffset, Math.min(v.byteLength, into.length)))
    },
    cell: (name, d) => views[name][d],
    close: () => undefined,
  }
}

/**
 * Opens a segment file for lazy reads (the file stays open until `close`); throws when it is not one (LegacySegment
 * for format 1). The first read holds the header; the block table is read at once, each per-document column when
 * it is first used: a search scores few segments (query.ts passes over those that cannot reach its top k), and
 * reading every column of every segment was a fifth of a cold search.
 */
export function openSegment(path: string): Segment {
  const fd = openSync(path, 'r')
  let open = true
  const readInto = (at: number, length: number, into: Uint8Array, offset: number): void => {
    let got = 0
    while (got < length) {
      const n = readSync(fd, into, offset + got, length - got, at + got)
      if (n <= 0) throw new SegmentFormatError(`${path}: the index segment is cut short`)
      got += n
    }
  }
  const pread = (at: number, length: number): Uint8Array => {
    const out = new Uint8Array(length)
    readInto(at, length, out, 0)
    return out
  }
  try {
    const first = new Uint8Array(FIRST_READ)
    const n = readSync(fd, first, 0, FIRST_READ, 0)
    const magic = n >= 8 ? new DataView(first.buffer).getUint32(0, true) : 0
    if (magic === MAGIC_V1) throw new LegacySegment(Buffer.concat([Buffer.from(first.subarray(0, n)), ...readRest(fd, n)]))
    if (magic !== MAGIC) throw new SegmentFormatError(`${path} is not an index segment`)
    const header = parseHeader(first, n, path)
    const L = header.layout
    const { docs, blocks } = header
    const file: SegmentFile = { path, first, n, readInto, pread }
    const column = <T extends Cells>(make: new (b: ArrayBuffer, o: number, n: number) => T, at: number, count: number, width: number): Column<T> => {
      if (at % width !== 0 || at < 8 || at + count * width > L.dict) throw new SegmentFormatError(`${path}: a damaged index segment`)
      return new Column(file, make, at, count, width)
    }
    const wide = L.offsetWidth === 8
    const ts = column(Float64Array, L.ts, docs, 8)
    const offsets = wide ? column(Float64Array, L.offsets, docs, 8) : column(Uint32Array, L.offsets, docs, 4)
    const lengths = column(Uint16Array, L.lengths, docs, 2)
    const projects = column(Uint16Array, L.projects, docs, 2)
    const kinds = column(Uint8Array, L.kinds, docs, 1)
    const skip = column(Float64Array, L.skip, blocks, 8).get()
    const skipAt = column(Uint32Array, L.skipAt, blocks * 2, 4).get()
    const columns = { ts, lengths, projects, kinds }
    return {
      header,
      get ts() {
        return ts.get()
      },
      get offsets() {
        return offsets.get()
      },
      get lengths() {
        return lengths.get()
      },
      get projects() {
        return projects.get()
      },
      get kinds() {
        return kinds.get()
      },
      skip,
      skipAt,
      read: pread,
      readInto,
      columnInto: (name, into) => columns[name].into(into),
      cell: (name, d) => (name === 'offsets' ? offsets : kinds).cell(d),
      close: () => {
        if (open) closeSync(fd)
        open = false
      },
    }
  } catch (e) {
    if (open) closeSync(fd)
    throw e
  }
}

type Cells = ArrayBufferView & { readonly [i: number]: number }

/** An open segment file: its first read (`n` bytes of `first`), and reads of the rest. */
interface SegmentFile {
  path: string
  first: Uint8Array
  n: number
  readInto: (at: number, length: number, into: Uint8Array, offset: number) => void
  pread: (at: number, length: number) => Uint8Array
}

/**
 * A per-document column of a segment file: a view of the first read when it holds it, else its own read when first
 * used (sections are 8-byte aligned); or its bytes read into another array, or one cell of it. A class: a segment
 * opens seven of these, and closures for each cost opening the index more.
 */
class Column<T extends Cells> {
  private made: T | undefined
  private page: { from: number; cells: number; view: T } | undefined

  constructor(
    private readonly file: SegmentFile,
    private readonly make: new (b: ArrayBuffer, o: number, n: number) => T,
    private readonly at: number,
    private readonly count: number,
    private readonly width: number,
  ) {}

  get(): T {
    if (this.made === undefined) {
      const { file, at, count, width } = this
      if (at + count * width <= file.n) this.made = new this.make(file.first.buffer as ArrayBuffer, at, count)
      else this.made = new this.make(file.pread(at, count * width).buffer as ArrayBuffer, 0, count)
    }
    return this.made
  }

  /**
   * Its bytes into `into` (at most its length): straight into the kernel's memory, where a column of a large segment
   * read into an array of its own, and copied, cost a cold search more than scoring it (400 KB of times a segment).
   */
  into(into: Uint8Array): void {
    const { file, at, made } = this
    const length = Math.min(this.count * this.width, into.length)
    if (made !== undefined) into.set(new Uint8Array(made.buffer, made.byteOffset, length))
    else if (at + length <= file.n) into.set(file.first.subarray(at, at + length))
    else file.readInto(at, length, into, 0)
  }

  /**
   * Document d's value: from a page of the column around it, where reading the whole column cost a fresh 200 KB array
   * per segment with a hit (orientation's hits, a project's newest, mostly share a page).
   */
  cell(d: number): number | undefined {
    const { file, at, count, width } = this
    if (!(d >= 0 && d < count)) return undefined
    if (this.made !== undefined || at + count * width <= file.n) return this.get()[d]!
    let page = this.page
    if (page === undefined || d < page.from || d >= page.from + page.cells) {
      const from = d - (d % CELL_PAGE)
      const cells = Math.min(CELL_PAGE, count - from)
      const view = new this.make(new ArrayBuffer(cells * width), 0, cells)
      file.readInto(at + from * width, cells * width, new Uint8Array(view.buffer, 0, cells * width), 0)
      this.page = page = { from, cells, view }
    }
    return page.view[d - page.from]!
  }
}

function readRest(fd: number, from: number): Buffer[] {
  const parts: Buffer[] = []
  for (let at = from; ;) {
    const chunk = Buffer.allocUnsafe(1 << 20)
    const n = readSync(fd, chunk, 0, chunk.length, at)
    if (n <= 0) return parts
    parts.push(chunk.subarray(0, n))
    at += n
  }
}

/** A term's postings in a segment: its document count, the bytes of its list (read on first use), their length and offset. */
export interface TermList {
  df: number
  length: number
  /** Where its postings start in the file. */
  at: number
  bytes: Uint8Array
}

/**
 * The scan of one dictionary block that `findTerm` does in JavaScript, done by the scoring kernel (score-wasm.ts
 * `find`): the place found, null when absent, undefined to leave the block to the JavaScript.
 */
export type BlockScan = (
  seg: Segment,
  at: number,
  length: number,
  first: number,
  hash: number,
  postAt: number,
) => { df: number; length: number; at: number } | null | undefined

function termList(seg: Segment, df: number, length: number, from: number): TermList {
  let bytes: Uint8Array | undefined
  return {
    df,
    length,
    at: from,
    // Read when first asked for: a search passes over most segments of a common term knowing only its count.
    get bytes() {
      return (bytes ??= seg.read(from, length))
    },
  }
}

/**
 * A term's postings in `seg`; undefined when the segment lacks it. With `scan` (the kernel's), the dictionary block is
 * scanned there: a fresh process decoding a block's varints in JavaScript cost a broad search about 5 million
 * instructions (24 lookups, each some 30 terms of three varints, run by the interpreter).
 */
export function findTerm(seg: Segment, hash: number, scan?: BlockScan): TermList | undefined {
  const { skip, skipAt } = seg
  let lo = 0
  let hi = skip.length - 1
  let b = -1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    if (skip[mid]! <= hash) {
      b = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  if (b < 0) return undefined
  const L = seg.header.layout
  const start = skipAt[b * 2]!
  const end = b + 1 < skip.length ? skipAt[b * 2 + 2]! : L.dictLength
  if (scan) {
    const found = scan(seg, L.dict + start, end - start, skip[b]!, hash, skipAt[b * 2 + 1]!)
    if (found !== undefined) return found === null ? undefined : termList(seg, found.df, found.length, L.postings + found.at)
  }
  const r = new ByteReader(seg.read(L.dict + start, end - start))
  let h = skip[b]!
  let at = skipAt[b * 2 + 1]!
  while (r.at < r.end) {
    h += r.varint()
    const df = r.varint()
    const length = r.varint()
    if (h === hash) return termList(seg, df, length, L.postings + at)
    if (h > hash) return undefined
    at += length
  }
  return undefined
}

/** Where document `d`'s event is in the log: its log segment, offset, and the most bytes it can take. */
export function placeOf(seg: Segment, d: number): { segment: number; offset: number; length: number } {
  const runs = seg.header.runs
  let r = runs.length - 1
  while (r > 0 && runs[r]!.first > d) r--
  const run = runs[r]!
  const offset = seg.cell('offsets', d)!
  const next = d + 1 < seg.header.docs && (r + 1 >= runs.length || runs[r + 1]!.first > d + 1) ? seg.cell('offsets', d + 1)! : run.end
  return { segment: run.segment, offset, length: Math.max(0, next - offset) }
}

/** Every term of `seg` with its postings, in hash order (merging and converting read a segment whole). */
export function* allTerms(seg: Segment): Generator<{ hash: number; df: number; bytes: Uint8Array }> {
  const L = seg.header.layout
  const dict = seg.read(L.dict, L.dictLength)
  const postings = seg.read(L.postings, L.size - L.postings)
  for (let b = 0; b < seg.skip.length; b++) {
    const end = b + 1 < seg.skip.length ? seg.skipAt[b * 2 + 2]! : dict.length
    const r = new ByteReader(dict, seg.skipAt[b * 2]!, end)
    let h = seg.skip[b]!
    let at = seg.skipAt[b * 2 + 1]!
    while (r.at < r.end) {
      h += r.varint()
      const df = r.varint()
      const length = r.varint()
      yield { hash: h, df, bytes: postings.subarray(at, at + length) }
      at += length
    }
  }
}
