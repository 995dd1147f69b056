/**
 * Ranking over the open index: BM25 over words plus BM25 over exact tokens (paths, identifiers), summed, times a
 * bounded recency boost `1 + 0.25 * exp(-age / 14 days)`. Filters (project, kind, time) are applied before the
 * top-k cut. `recent` lists the newest events that hold every word instead.
 * Measured choices: ../shared/docs/search-notes.md (rank fusion and decay both lost known items).
 *
 * A search runs in a fresh process, where a loop runs interpreted before it is compiled: the scoring decodes each
 * posting list inline into one array of sums per segment (no call, no object per posting), filters only the
 * documents it touched, and keeps the best in a small heap (top.ts); objects are made for the hits alone.
 */
import type { SearchEvent } from './events.js'
import type { OpenIndex } from './index-read.js'
import { EVENT_KINDS, type EventKind } from './kinds.js'
import type { MemoryLayout } from './paths.js'
import { type ProjectWant, projectMatches } from './projects.js'
import { EventReader } from './reader.js'
import { type Segment, type TermList, findTerm, hostName, placeOf } from './segment.js'
import { type Kernel, type Source, dropKernel, makeKernel } from './score-wasm.js'
import { queryTerms, termHash } from './tokens.js'
import { TopK } from './top.js'

export interface SearchQuery {
  query: string
  project?: ProjectWant
  kinds?: EventKind[]
  /** Epoch ms bounds: since inclusive, before exclusive. */
  since?: number
  before?: number
  recent?: boolean
  limit: number
  now: number
  /** Score every document, passing none over (MaxScore off): the plain way, which tests compare with. */
  exhaustive?: boolean
}

export interface Hit {
  rank: number
  id: string
  session: string
  project: string
  host: string
  kind: EventKind
  ts: string | null
  transcript: string
  line: number
  snippet: string
  score: number
  tool?: string
  paths?: string[]
  /** A wrap-up's open threads. */
  threads?: string[]
}

const K1 = 1.2
const B = 0.75
const DAY = 86_400_000
export const BOOST = 0.25
export const BOOST_DAYS = 14

/**
 * Which of a segment's projects pass the filter (by project number). `seen` keeps each project's answer for the
 * next segments, which list mostly the same projects (matching a name parses the path).
 */
function projectsOk(seg: Segment, want: ProjectWant | undefined, seen: Map<string, boolean>): Uint8Array {
  const ok = new Uint8Array(seg.header.projects.length + 1)
  // No filter: every project passes, without hashing each segment's hundred-odd paths into `seen`.
  if (want === undefined) return ok.fill(1, 0, seg.header.projects.length)
  seg.header.projects.forEach((p, i) => {
    let yes = seen.get(p)
    if (yes === undefined) seen.set(p, (yes = want === undefined || projectMatches(p, want)))
    ok[i] = yes ? 1 : 0
  })
  return ok
}

function kindMaskOf(kinds: readonly EventKind[] | undefined): Uint8Array {
  const mask = new Uint8Array(16).fill(kinds ? 0 : 1)
  for (const k of kinds ?? []) mask[EVENT_KINDS.indexOf(k)] = 1
  return mask
}

interface Term {
  weight: number
  df: number
  counts: boolean
  lists: (TermList | undefined)[]
}

/**
 * Adds `t`'s BM25 part to `acc` for every document of its list in `seg` (codec.ts: a varint of
 * `(gap - 1) * 2 + (tf > 1)`, then `tf - 2` when that bit is set); a document met the first time goes on `touched`.
 * With `only`, a document no earlier term touched is passed over (its score cannot reach the top k: MaxScore), and
 * the list is read up to document `upTo`, the last touched one. Returns the new count of touched documents, -1 for a
 * damaged list.
 */
export function addPostings(
  list: { df: number; bytes: Uint8Array },
  weight: number,
  lengths: Uint16Array,
  norm0: number,
  normPer: number,
  acc: Float64Array,
  touched: Int32Array,
  nt: number,
  matched: Uint8Array | undefined,
  only: boolean,
  upTo: number,
): number {
  const b = list.bytes
  const df = list.df
  // Read before the loop: code after a loop compiled while running (OSR) has no type feedback, and a property
  // read there would throw the compiled code away at the end of every call.
  const end = b.length
  let at = 0
  let d = -1
  for (let i = 0; i < df; i++) {
    let x = b[at++]!
    let v = x & 0x7f
    for (let shift = 128; x > 0x7f; shift *= 128) {
      x = b[at++]!
      v += (x & 0x7f) * shift
    }
    d += 1 + Math.floor(v / 2)
    let tf = 1
    if (v % 2 === 1) {
      x = b[at++]!
      let t = x & 0x7f
      for (let shift = 128; x > 0x7f; shift *= 128) {
        x = b[at++]!
        t += (x & 0x7f) * shift
      }
      tf = t + 2
    }
    if (acc[d] === 0) {
      if (!only) touched[nt++] = d
      else if (d > upTo) return nt
      else continue
    }
    acc[d]! += (weight * tf) / (tf + norm0 + normPer * lengths[d]!)
    if (matched !== undefined) matched[d]!++
  }
  return at === end ? nt : -1
}

/** A search's filters, and the heap's floor and the count of candidates as the segments are gone through. */
interface Filters {
  kindMask: Uint8Array
  since: number
  before: number
  now: number
  /** `recent`: how many of the counted terms an event must hold. */
  need: number
  floor: number
  total: number
}

/** A segment's per-document columns a collection reads. */
type Columns = Pick<Segment, 'kinds' | 'projects' | 'ts'>

/** Offers the touched documents of a segment that pass the filters, by relevance with the recency boost. */
function collectRelevant(seg: Columns, si: number, touched: Int32Array, nt: number, acc: Float64Array, okProject: Uint8Array, f: Filters, top: TopK): void {
  const { kinds, projects, ts } = seg
  const { kindMask, since, before, now } = f
  let floor = f.floor
  let total = 0
  for (let j = 0; j < nt; j++) {
    const d = touched[j]!
    if (kindMask[kinds[d]! & 0x0f] !== 1 || okProject[projects[d]!] !== 1) continue
    const t = ts[d]!
    if (t < since || t >= before) continue
    total++
    const s = acc[d]!
    if (s * (1 + BOOST) < floor) continue // not kept whatever its age
    const age = t > 0 ? Math.max(0, now - t) : Infinity
    const boosted = s * (1 + BOOST * Math.exp(-age / (BOOST_DAYS * DAY)))
    if (boosted >= floor) floor = top.offer(boosted, t, si, d)
  }
  f.floor = floor
  f.total += total
}

/** The age steps of the kernel's bounds of the recency boost. */
const BOUND_STEP = 4 * DAY
let bounds: Float64Array | undefined

/**
 * The most a document's recency boost can be at an age of i steps or more, i from 0 to 63, a hair over (Math.exp's
 * rounding): the kernel's cut keeps only a document whose sum times it reaches the floor. With the largest boost for
 * all, months-old events at the edge of the top k were offered by the hundred (a broad search's offers cost more
 * than its filter).
 */
function boostBounds(): Float64Array {
  return (bounds ??= Float64Array.from({ length: 64 }, (_, i) => (1 + BOOST * Math.exp(-(i * BOUND_STEP) / (BOOST_DAYS * DAY))) * (1 + 1e-9)))
}

/** The kernel's histogram scale for sums below `most`: 256 buckets. */
const scaleOf = (most: number): number => (most > 0 && Number.isFinite(most) ? 255 / most : 0)

/**
 * collectRelevant with the kernel (score-wasm.ts): it filters the touched documents and keeps those whose sum can
 * still reach the floor, which is the heap's or a lower bound of the k-th best sum among them (a histogram's
 * bucket: k documents score at least that, the boost being at least 1); a document below it is not among the top
 * k whatever the order of offers. The few left are offered here, as collectRelevant does.
 */
function collectKernel(
  kernel: Kernel,
  seg: Source,
  si: number,
  nt: number,
  acc: Float64Array,
  okProject: Uint8Array,
  f: Filters,
  top: TopK,
  most: number,
): void {
  const scale = scaleOf(most)
  const m = kernel.filter(seg, nt, f.kindMask, okProject, f.since, f.before, scale)
  f.total += m
  const n = kernel.cut(m, Math.max(f.floor, kernel.edge(top.k, scale)), seg, f.now, 1 / BOUND_STEP, boostBounds())
  const { out } = kernel
  const ts = kernel.tsOf(seg)
  const { now } = f
  let floor = f.floor
  for (let j = 0; j < n; j++) {
    const d = out[j]!
    const t = ts[d]!
    const s = acc[d]!
    if (s * (1 + BOOST) < floor) continue
    const age = t > 0 ? Math.max(0, now - t) : Infinity
    const boosted = s * (1 + BOOST * Math.exp(-age / (BOOST_DAYS * DAY)))
    if (boosted >= floor) floor = top.offer(boosted, t, si, d)
  }
  f.floor = floor
}

/**
 * Each hot loop of the scoring is compiled while it runs (OSR), and code that had never run by then (after the loop,
 * or a rare branch in it: a gap or count of two bytes, a list read in part, a heap that overflows) has no type
 * feedback: each call that reaches it throws the compiled code away (and compiles it again, several ms each). So
 * every path runs first on tiny inputs, enough times for V8 to keep feedback (it keeps none for a function's first
 * few calls). Not with the kernel (score-wasm.ts): those loops are its, and the few offers it leaves run as they come.
 */
function warmUp(norm0: number, normPer: number, filters: Filters): void {
  const docs = new Float64Array(101)
  const lengths = new Uint16Array(101)
  const none = { kinds: new Uint8Array(0), projects: new Uint16Array(0), ts: new Float64Array(0) }
  const top = new TopK(3, false)
  const empty = { df: 0, bytes: new Uint8Array(0) }
  const wide = { df: 1, bytes: Uint8Array.of(0xc9, 0x01, 0xc8, 0x01) }
  const passed = { df: 1, bytes: Uint8Array.of(0x01, 0x00) }
  const touched = new Int32Array(1)
  const one = new Float64Array(1)
  for (let i = 0; i < 40; i++) {
    for (const x of [1, 5, 3, 4, 2, 6, 0]) top.offer(x, x, 0, 0)
    collectRelevant(none, 0, touched, 0, docs, new Uint8Array(0), filters, top)
    docs[100] = 0
    addPostings(empty, 0, lengths, norm0, normPer, docs, touched, 0, undefined, false, -1)
    addPostings(wide, 1, lengths, norm0, normPer, docs, touched, 0, undefined, false, -1)
    addPostings(passed, 1, lengths, norm0, normPer, one, touched, 0, undefined, true, -1)
  }
}

/**
 * Zeroes what a segment's scoring left in `acc` and `matched`: only touched documents hold anything. When many are,
 * zeroing the segment's stretch at once costs less than a loop over them.
 */
function clear(touched: Int32Array, nt: number, acc: Float64Array, matched: Uint8Array | undefined, docs: number): void {
  if (nt * 16 > docs) {
    acc.fill(0, 0, docs)
    matched?.fill(0, 0, docs)
    return
  }
  for (let j = 0; j < nt; j++) acc[touched[j]!] = 0
  if (matched) for (let j = 0; j < nt; j++) matched[touched[j]!] = 0
}

/**
 * Most touched documents a segment's partial floor is worked out over in JavaScript (a pass over them each); the
 * kernel's histogram has no such limit.
 */
const PARTIAL_MAX = 1024

/**
 * The k-th best score, recency boost included, of the touched documents that pass the filters, from their scores so
 * far: a floor the top k reaches at least, since scores only grow (-Infinity when fewer than k pass).
 */
function partialFloor(seg: Segment, touched: Int32Array, nt: number, acc: Float64Array, okProject: Uint8Array, f: Filters, k: number): number {
  const { kinds, projects, ts } = seg
  const top = new TopK(k, false)
  let floor = -Infinity
  for (let j = 0; j < nt; j++) {
    const d = touched[j]!
    if (f.kindMask[kinds[d]! & 0x0f] !== 1 || okProject[projects[d]!] !== 1) continue
    const t = ts[d]!
    if (t < f.since || t >= f.before) continue
    const age = t > 0 ? Math.max(0, f.now - t) : Infinity
    const boosted = acc[d]! * (1 + BOOST * Math.exp(-age / (BOOST_DAYS * DAY)))
    if (boosted > floor) floor = top.offer(boosted, 0, 0, 0)
  }
  return floor
}

/**
 * partialFloor with the kernel: a sum at least k of the touched documents that pass the filters have reached so far
 * (a lower bound of the k-th best, which the boost only raises).
 */
function partialEdge(kernel: Kernel, seg: Source, nt: number, okProject: Uint8Array, f: Filters, k: number, most: number): number {
  const scale = scaleOf(most)
  kernel.filter(seg, nt, f.kindMask, okProject, f.since, f.before, scale)
  return kernel.edge(k, scale)
}

/** Offers the touched documents of a segment that pass the filters and hold every counted term, newest first. */
function collectRecent(
  seg: Segment,
  si: number,
  touched: Int32Array,
  nt: number,
  acc: Float64Array,
  matched: Uint8Array,
  okProject: Uint8Array,
  f: Filters,
  top: TopK,
): void {
  const { kinds, projects, ts } = seg
  const { kindMask, since, before, need } = f
  let floor = f.floor
  let total = 0
  for (let j = 0; j < nt; j++) {
    const d = touched[j]!
    if (matched[d]! < need || kindMask[kinds[d]! & 0x0f] !== 1 || okProject[projects[d]!] !== 1) continue
    const t = ts[d]!
    if (t < since || t >= before) continue
    total++
    if (t >= floor) floor = top.offer(acc[d]!, t, si, d)
  }
  f.floor = floor
  f.total += total
}

/** The ranked hits of `q` (deduplicated by event id). */
export async function search(m: MemoryLayout, index: OpenIndex, q: SearchQuery): Promise<Hit[]> {
  const { words, exact } = queryTerms(q.query)
  const segs = index.segments
  let docs = 0
  let sumLength = 0
  for (const s of segs) {
    docs += s.header.docs
    sumLength += s.header.sumLength
  }
  const wanted = [...words.map((w) => ({ hash: termHash(w, false), word: true })), ...exact.map((t) => ({ hash: termHash(t, true), word: false }))]
  if (docs === 0 || wanted.length === 0) return []
  const avgdl = sumLength / docs
  // One set of per-document arrays for every segment, cleared where a segment touched them: zeroing and
  // collecting hundreds of KB per segment cost more than the scoring.
  const most = segs.reduce((n, seg) => Math.max(n, seg.header.docs), 0)
  // The posting lists are summed by a WebAssembly function (score-wasm.ts: a fresh process runs the JavaScript
  // loop unoptimised), which also scans the dictionary blocks; the plain way (`exhaustive`, which tests compare with)
  // keeps the JavaScript loops. No list is longer than its segment's postings.
  const maxList = segs.reduce((n, seg) => Math.max(n, seg.header.layout.size - seg.header.layout.postings), 0)
  const kernel = q.exhaustive ? undefined : makeKernel(most, maxList, q.recent === true)
  const terms: Term[] = wanted.map((t) => {
    const lists = segs.map((s) => findTerm(s, t.hash, kernel?.find))
    const df = lists.reduce((n, l) => n + (l ? l.df : 0), 0)
    const idf = Math.log(1 + (docs - df + 0.5) / (df + 0.5))
    // `recent` counts the words (or, for a query of exact tokens only, those) an event holds
    return { weight: idf * (K1 + 1), counts: t.word === words.length > 0, lists, df }
  })
  // The rarest term first: the documents touched first are the likely best, so the heap's floor rises early and
  // most of the rest are passed over without a call.
  terms.sort((a, b) => a.df - b.df)
  const need = words.length > 0 ? words.length : exact.length
  const kindMask = kindMaskOf(q.kinds)
  const needles = [...exact, ...words]
  const filters: Filters = { kindMask, since: q.since ?? -Infinity, before: q.before ?? Infinity, now: q.now, need, floor: -Infinity, total: 0 }
  const norm0 = K1 * (1 - B)
  const normPer = (K1 * B) / avgdl
  // The most a document can score in each segment: the weights of the terms it holds there (a term's part,
  // weight * tf / (tf + norm), is below its weight), times the largest recency boost.
  const bound = segs.map((_, si) => terms.reduce((sum, t) => sum + (t.lists[si] ? t.weight : 0), 0) * (1 + BOOST))
  // Relevance: the segments that may score highest first, so the heap's floor rises early.
  const order = segs.map((_, si) => si)
  if (!q.recent) order.sort((a, b) => bound[b]! - bound[a]! || a - b)
  const seen = new Map<string, boolean>()
  const acc = kernel?.acc ?? new Float64Array(most)
  const touched = kernel?.touched ?? new Int32Array(most)
  const matched = kernel ? kernel.matched : q.recent ? new Uint8Array(most) : undefined
  if (!kernel) warmUp(norm0, normPer, filters)
  const run = (k: number, prune: boolean): Run => {
    const top = new TopK(k, q.recent === true)
    filters.floor = -Infinity
    filters.total = 0
    let pruned = false
    for (const si of order) {
      const seg = segs[si]!
      if (!terms.some((t) => t.lists[si] !== undefined)) continue
      // MaxScore: no document of this segment can reach the heap's floor (with k kept); or, past the first terms,
      // none that only the remaining terms touch. Only by relevance: with `recent` the heap's floor is a time (a
      // score bound below it passed over every later segment), and every term's documents count.
      if (prune && !q.recent && bound[si]! <= filters.floor) {
        pruned = true
        continue
      }
      let nt = 0
      let rest = prune && !q.recent ? bound[si]! : Infinity
      const okProject = projectsOk(seg, q.project, seen)
      // The floor the top k will have at least: the heap's, or the k-th best of the scores so far in this segment
      // (a score only grows as terms are added).
      let floor = filters.floor
      let upTo = -1
      // The highest document touched: each term's pass appends the documents it touches first in document order.
      let last = -1
      if (kernel) kernel.loadLengths(seg)
      for (let ti = 0; ti < terms.length; ti++) {
        const t = terms[ti]!
        const list = t.lists[si]
        if (!list) continue
        const only = rest <= floor
        if (only) {
          pruned = true
          if (upTo < 0) upTo = last
        }
        rest -= t.weight * (1 + BOOST)
        const docs = seg.header.docs
        const before = nt
        nt = kernel
          ? kernel.add(seg, list.at, list.length, list.df, t.weight, norm0, normPer, nt, t.counts, only, upTo, docs)
          : addPostings(list, t.weight, seg.lengths, norm0, normPer, acc, touched, nt, t.counts ? matched : undefined, only, upTo)
        if (nt < 0) throw new Error('a damaged posting list')
        if (nt > before) last = Math.max(last, touched[nt - 1]!)
        // Worked out only while the heap has no floor yet (the first segment), over few documents; past those the
        // kernel's histogram gives a lower bound of it.
        if (!only && floor === -Infinity && rest < Infinity && nt >= k && ti + 1 < terms.length) {
          if (kernel) floor = partialEdge(kernel, seg, nt, okProject, filters, k, bound[si]! / (1 + BOOST))
          else if (nt <= PARTIAL_MAX) floor = partialFloor(seg, touched, nt, acc, okProject, filters, k)
        }
      }
      if (matched) collectRecent(seg, si, touched, nt, acc, matched, okProject, filters, top)
      else if (kernel) collectKernel(kernel, seg, si, nt, acc, okProject, filters, top, bound[si]! / (1 + BOOST))
      else collectRelevant(seg, si, touched, nt, acc, okProject, filters, top)
      // The kernel zeroes only what was touched: filling a large segment's 400 KB of sums cost more than the loop.
      if (kernel) kernel.clear(nt)
      else clear(touched, nt, acc, matched, seg.header.docs)
    }
    return { top, total: filters.total, pruned }
  }
  const make = (e: SearchEvent, rank: number, score: number, host: string): Hit => toHit(e, rank, Math.round(score * 1000) / 1000, needles, host)
  try {
    return hitsOf(m, segs, run, q.limit, make, q.exhaustive === true)
  } catch (e) {
    if (kernel) dropKernel()
    throw e
  }
}

/** The best k candidates, how many passed the filters, and whether documents were passed over unscored (then `total` is short). */
interface Run {
  top: TopK
  total: number
  pruned?: boolean
}

/**
 * The events of the best candidates, read from the log, deduplicated by id, up to `limit`. The candidates come
 * from `run(k)`, the best k of them; should duplicates use them up before `limit` hits, it runs again for all
 * (first without passing any document over, for their count).
 */
function hitsOf(
  m: MemoryLayout,
  segs: Segment[],
  run: (k: number, prune: boolean) => Run,
  limit: number,
  make: (e: SearchEvent, rank: number, score: number, host: string) => Hit,
  exhaustive = true,
): Hit[] {
  const reader = new EventReader(m)
  try {
    for (let k = limit * 4 + 16, prune = !exhaustive; ; prune = false) {
      const { top, total, pruned } = run(k, prune)
      const hits: Hit[] = []
      const ids = new Set<string>()
      for (const c of top.sorted()) {
        if (hits.length >= limit) break
        const seg = segs[c.seg]!
        const event = reader.read(placeOf(seg, c.doc))
        if (!event || ids.has(event.id)) continue
        ids.add(event.id)
        hits.push(make(event, hits.length + 1, c.score, hostName(seg.cell('kinds', c.doc)!) ?? event.host))
      }
      if (hits.length >= limit) return hits
      if (pruned) continue // the same k again, every document counted
      if (total <= k) return hits
      k = total
    }
  } finally {
    reader.close()
  }
}

function toHit(e: SearchEvent, rank: number, score: number, needles: string[], host: string): Hit {
  const hit: Hit = {
    rank,
    id: e.id,
    session: e.session,
    project: e.project,
    host,
    kind: e.kind,
    ts: e.ts ?? null,
    transcript: e.transcript,
    line: e.line,
    snippet: snippet(e.text, needles),
    score,
  }
  if (e.tool) hit.tool = e.tool
  if (e.paths) hit.paths = e.paths
  if (e.threads) hit.threads = e.threads
  return hit
}

/** One line of `text` around the first place a needle occurs. */
export function snippet(raw: string, needles: string[], width = 160): string {
  const text = raw.replace(/\s+/g, ' ').trim()
  const lower = text.toLowerCase()
  let at = -1
  for (const n of needles) {
    const i = lower.indexOf(n)
    if (i !== -1 && (at === -1 || i < at)) at = i
  }
  if (text.length <= width) return text
  const start = at <= 40 ? 0 : Math.min(at - 40, text.length - width)
  const cut = text.slice(start, start + width)
  return `${start > 0 ? '…' : ''}${cut}${start + width < text.length ? '…' : ''}`
}

export interface NewestQuery {
  project?: ProjectWant
  /** One list per group of kinds, each `limit` long. */
  groups: { kinds: EventKind[]; limit: number }[]
  since?: number
  before?: number
}

/**
 * The newest events of each group of kinds (no words): orientation on a project. One pass over the per-document
 * columns of each segment that holds the project fills every group's heap.
 */
export async function newest(m: MemoryLayout, index: OpenIndex, q: NewestQuery): Promise<Hit[][]> {
  const groupOf = new Int8Array(16).fill(-1)
  q.groups.forEach((g, i) => {
    for (const k of g.kinds) groupOf[EVENT_KINDS.indexOf(k)] = i
  })
  const seen = new Map<string, boolean>()
  /** The best `ks[i]` of group i (undefined: a group left out of this pass). */
  const pass = (ks: (number | undefined)[]): { top: TopK; total: number }[] => {
    const tops = ks.map((k) => new TopK(k ?? 0, true))
    const totals = ks.map(() => 0)
    const floors = ks.map(() => -Infinity)
    index.segments.forEach((seg, si) => {
      const ok = projectsOk(seg, q.project, seen)
      if (!ok.includes(1)) return
      const { kinds, projects, ts } = seg
      // Only the stretch of documents that holds the wanted projects (a session's events are logged together).
      const spans = seg.header.spans
      let lo = spans ? seg.header.docs : 0
      let hi = spans ? -1 : seg.header.docs - 1
      if (spans) {
        ok.forEach((yes, p) => {
          if (yes !== 1 || p * 2 >= spans.length) return
          lo = Math.min(lo, spans[p * 2]!)
          hi = Math.max(hi, spans[p * 2 + 1]!)
        })
      }
      // Newest last in the log, mostly: from the end, the heaps fill with the newest first and most older
      // documents then end at the floor check (the heaps' order does not depend on the order of offers).
      for (let d = hi; d >= lo; d--) {
        const g = groupOf[kinds[d]! & 0x0f]!
        if (g < 0 || ks[g] === undefined || ok[projects[d]!] !== 1) continue
        const t = ts[d]!
        if ((q.since !== undefined && t < q.since) || (q.before !== undefined && t >= q.before)) continue
        totals[g]!++
        if (t >= floors[g]!) floors[g] = tops[g]!.offer(0, t, si, d)
      }
    })
    return tops.map((top, i) => ({ top, total: totals[i]! }))
  }
  const first = pass(q.groups.map((g) => g.limit * 4 + 16))
  return q.groups.map((g, i) =>
    hitsOf(
      m,
      index.segments,
      (k) => (k <= first[i]!.top.k ? first[i]! : pass(q.groups.map((_, j) => (j === i ? k : undefined)))[i]!),
      g.limit,
      (e, rank, _s, host) => toHit(e, rank, 0, [], host),
    ),
  )
}
