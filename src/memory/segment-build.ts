/**
 * Making segment files (segment.ts): from the events of a log range, from segments merged into one, and from a
 * format 1 file. Postings are gathered in flat typed arrays (a term number, a document, a count per posting),
 * then grouped by term with a counting sort: a piece of 50,000 events holds a few million numbers, not a Map of
 * arrays per term.
 */
import { decodePostings } from './codec.js'
import type { LogPosition, LoggedEvent } from './log.js'
import { type Run, type Segment, allTerms, encodeSegment, kindCode } from './segment.js'
import { termsOf } from './tokens.js'

/** A growable array of uint32. */
class U32 {
  a = new Uint32Array(1 << 16)
  n = 0
  push(v: number): void {
    if (this.n === this.a.length) {
      const next = new Uint32Array(this.a.length * 2)
      next.set(this.a)
      this.a = next
    }
    this.a[this.n++] = v
  }
}

/** Terms in hash order, their postings grouped per term in the order they were added. */
function groupByTerm(hashOf: Float64Array, termIds: Uint32Array, docsIn: Uint32Array, tfsIn: Uint32Array, n: number) {
  const terms = hashOf.length
  const order = new Uint32Array(terms)
  for (let t = 0; t < terms; t++) order[t] = t
  order.sort((a, b) => hashOf[a]! - hashOf[b]!)
  const rank = new Uint32Array(terms)
  for (let i = 0; i < terms; i++) rank[order[i]!] = i
  const starts = new Uint32Array(terms + 1)
  for (let i = 0; i < n; i++) starts[rank[termIds[i]!]! + 1]!++
  for (let t = 0; t < terms; t++) starts[t + 1]! += starts[t]!
  const fill = starts.slice(0, terms)
  const docs = new Uint32Array(n)
  const tfs = new Uint16Array(n)
  for (let i = 0; i < n; i++) {
    const at = fill[rank[termIds[i]!]!]!++
    docs[at] = docsIn[i]!
    tfs[at] = Math.min(tfsIn[i]!, 0xffff)
  }
  const hashes = new Float64Array(terms)
  for (let i = 0; i < terms; i++) hashes[i] = hashOf[order[i]!]!
  return { hashes, starts, docs, tfs }
}

/** Runs of documents by log segment, from each document's log segment and where its event ends. */
export function runsOf(segments: ArrayLike<number>, ends: ArrayLike<number>): Run[] {
  const runs: Run[] = []
  for (let d = 0; d < segments.length; d++) {
    const last = runs[runs.length - 1]
    if (last && last.segment === segments[d]) last.end = ends[d]!
    else runs.push({ segment: segments[d]!, first: d, end: ends[d]! })
  }
  return runs
}

/** The index piece of `events`, which the log holds between `from` and `to`. */
export function buildSegment(events: LoggedEvent[], from: LogPosition, to: LogPosition): Buffer {
  const n = events.length
  const ids = new Map<number, number>()
  const hashOf: number[] = []
  const termIds = new U32()
  const docs = new U32()
  const tfs = new U32()
  const projectIds = new Map<string, number>()
  const ts = new Float64Array(n)
  const offsets = new Float64Array(n)
  const segs = new Uint32Array(n)
  const ends = new Float64Array(n)
  const lengths = new Uint16Array(n)
  const kinds = new Uint8Array(n)
  const projects = new Uint16Array(n)
  for (let d = 0; d < n; d++) {
    const { event, segment, offset, length } = events[d]!
    const { tf, length: dl } = termsOf(event.text, event.paths ?? [])
    for (const [h, c] of tf) {
      let id = ids.get(h)
      if (id === undefined) {
        id = hashOf.length
        ids.set(h, id)
        hashOf.push(h)
      }
      termIds.push(id)
      docs.push(d)
      tfs.push(c)
    }
    const t = event.ts !== undefined ? Date.parse(event.ts) : NaN
    ts[d] = Number.isFinite(t) ? t : 0
    segs[d] = segment
    offsets[d] = offset
    ends[d] = offset + length + 1
    lengths[d] = Math.min(dl, 0xffff)
    kinds[d] = kindCode(event.kind, event.host)
    let p = projectIds.get(event.project)
    if (p === undefined) {
      p = projectIds.size
      if (p > 0xffff) p = 0xffff
      else projectIds.set(event.project, p)
    }
    projects[d] = p
  }
  const grouped = groupByTerm(Float64Array.from(hashOf), termIds.a, docs.a, tfs.a, termIds.n)
  return encodeSegment({
    from,
    to,
    projects: [...projectIds.keys()],
    runs: runsOf(segs, ends),
    ts,
    offsets,
    lengths,
    projectIds: projects,
    kinds,
    ...grouped,
  })
}

/** One segment holding the documents of `segs` in order (they cover one stretch of the log, oldest first). */
export function mergeSegments(segs: Segment[]): Buffer {
  const docs = segs.reduce((n, s) => n + s.header.docs, 0)
  const ts = new Float64Array(docs)
  const offsets = new Float64Array(docs)
  const lengths = new Uint16Array(docs)
  const projectIds = new Uint16Array(docs)
  const kinds = new Uint8Array(docs)
  const projects = new Map<string, number>()
  const runs: Run[] = []
  const bases: number[] = []
  let base = 0
  for (const s of segs) {
    bases.push(base)
    const remap = s.header.projects.map((p) => {
      let id = projects.get(p)
      if (id === undefined) {
        id = Math.min(projects.size, 0xffff)
        if (projects.size <= 0xffff) projects.set(p, id)
      }
      return id
    })
    for (let d = 0; d < s.header.docs; d++) {
      ts[base + d] = s.ts[d]!
      offsets[base + d] = s.offsets[d]!
      lengths[base + d] = s.lengths[d]!
      projectIds[base + d] = remap[s.projects[d]!] ?? 0xffff
      kinds[base + d] = s.kinds[d]!
    }
    for (const r of s.header.runs) runs.push({ ...r, first: r.first + base })
    base += s.header.docs
  }
  // Every segment's terms, merged by hash; a term's postings are its segments' lists one after the other.
  const lists = segs.map((s) => [...allTerms(s)])
  const total = lists.reduce((n, l) => n + l.reduce((m, t) => m + t.df, 0), 0)
  const allHashes = new Float64Array(lists.reduce((n, l) => n + l.length, 0))
  let k = 0
  for (const l of lists) for (const t of l) allHashes[k++] = t.hash
  allHashes.sort()
  const hashes: number[] = []
  for (let i = 0; i < allHashes.length; i++) if (i === 0 || allHashes[i] !== allHashes[i - 1]) hashes.push(allHashes[i]!)
  const starts = new Uint32Array(hashes.length + 1)
  const outDocs = new Uint32Array(total)
  const outTfs = new Uint16Array(total)
  const cursors = lists.map(() => 0)
  let at = 0
  for (let t = 0; t < hashes.length; t++) {
    starts[t] = at
    for (let s = 0; s < lists.length; s++) {
      const term = lists[s]![cursors[s]!]
      if (term === undefined || term.hash !== hashes[t]) continue
      decodePostings(term.bytes, term.df, outDocs, outTfs, at, bases[s]!)
      at += term.df
      cursors[s]!++
    }
  }
  starts[hashes.length] = at
  return encodeSegment({
    from: segs[0]!.header.from,
    to: segs[segs.length - 1]!.header.to,
    projects: [...projects.keys()],
    runs,
    ts,
    offsets,
    lengths,
    projectIds,
    kinds,
    hashes: Float64Array.from(hashes),
    starts,
    docs: outDocs,
    tfs: outTfs,
  })
}
