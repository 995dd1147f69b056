/**
 * Ranking over the open index: BM25 over words plus BM25 over exact tokens (paths, identifiers), summed, times a
 * bounded recency boost `1 + 0.25 * exp(-age / 14 days)`. Filters (project, kind, time) are applied while
 * scoring, before the top-k cut. `recent` lists the newest events that hold every word instead.
 * Measured choices: ../shared/docs/search-notes.md (rank fusion and decay both lost known items).
 */
import { EVENT_KINDS, type EventKind, type SearchEvent } from './events.js'
import type { OpenIndex } from './indexer.js'
import { type MemoryLayout, readEventAt } from './log.js'
import { findTerm, HOST_NAMES } from './segment.js'
import { queryTerms, termHash } from './tokens.js'

export interface SearchQuery {
  query: string
  /** A project: its folder name, or a path (absolute) whose folder and subfolders match. */
  project?: { name?: string; path?: string }
  kinds?: EventKind[]
  /** Epoch ms bounds: since inclusive, before exclusive. */
  since?: number
  before?: number
  recent?: boolean
  limit: number
  now: number
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

/** A project's folder name, whichever separator its path uses (a Windows session's `D:\\repo`). */
export function projectName(project: string): string {
  const parts = project.split(/[\\/]/).filter((x) => x !== '')
  return parts[parts.length - 1] ?? ''
}

/**
 * The repository a worktree belongs to, by its folder name: `/src/cli/.worktrees/ent-95` and
 * `D:\\oh-my-posh\\.claude\\worktrees\\x` are worktrees of `cli` and `oh-my-posh`. The project's own name otherwise.
 */
export function repoName(project: string): string {
  const parts = project.split(/[\\/]/).filter((x) => x !== '')
  const at = parts.findIndex((p, i) => p === '.worktrees' || (p === 'worktrees' && parts[i - 1] === '.claude'))
  if (at > 0) return parts[parts[at - 1] === '.claude' ? at - 2 : at - 1] ?? ''
  return parts[parts.length - 1] ?? ''
}

/** A project wanted by path (that folder and its subfolders) or by name (its folder name or its repository's). */
export function projectMatches(project: string, want: { name?: string; path?: string }): boolean {
  if (want.path !== undefined && (project === want.path || project.startsWith(`${want.path.replace(/\/+$/, '')}/`))) return true
  if (want.name !== undefined) {
    const name = want.name.toLowerCase()
    if (projectName(project).toLowerCase() === name || repoName(project).toLowerCase() === name) return true
  }
  return false
}

interface Candidate {
  seg: number
  doc: number
  score: number
  ts: number
}

/** The ranked hits of `q` (already deduplicated by event id). */
export async function search(m: MemoryLayout, index: OpenIndex, q: SearchQuery): Promise<Hit[]> {
  const { words, exact } = queryTerms(q.query)
  const terms = [...words.map((w) => ({ hash: termHash(w, false), word: true })), ...exact.map((t) => ({ hash: termHash(t, true), word: false }))]
  const segs = index.segments
  let docs = 0
  let sumLength = 0
  for (const s of segs) {
    docs += s.header.docs
    sumLength += s.header.sumLength
  }
  if (docs === 0 || terms.length === 0) return []
  const avgdl = sumLength / docs
  const ranges = terms.map((t) => segs.map((s) => findTerm(s, t.hash)))
  const idf = ranges.map((rs) => {
    const df = rs.reduce((n, r) => n + (r ? r.end - r.start : 0), 0)
    return Math.log(1 + (docs - df + 0.5) / (df + 0.5))
  })
  const kindMask = new Uint8Array(EVENT_KINDS.length).fill(q.kinds ? 0 : 1)
  for (const k of q.kinds ?? []) kindMask[EVENT_KINDS.indexOf(k)] = 1
  const need = words.length > 0 ? words.length : exact.length

  const candidates: Candidate[] = []
  segs.forEach((seg, si) => {
    const projectOk = seg.header.projects.map((p) => (q.project ? projectMatches(p, q.project) : true))
    const n = seg.header.docs
    const scores = new Float64Array(n)
    const matched = new Uint8Array(n)
    const seen = new Uint8Array(n)
    const touched: number[] = []
    const allowed = (d: number): boolean => {
      if (kindMask[seg.kinds[d]!] !== 1 || projectOk[seg.projects[d]!] === false) return false
      const ts = seg.ts[d]!
      if (q.since !== undefined && ts < q.since) return false
      if (q.before !== undefined && ts >= q.before) return false
      return true
    }
    terms.forEach((t, ti) => {
      const r = ranges[ti]![si]
      if (!r) return
      for (let p = r.start; p < r.end; p++) {
        const d = seg.docIds[p]!
        if (seen[d] === 2) continue
        if (seen[d] === 0) {
          if (!allowed(d)) {
            seen[d] = 2
            continue
          }
          seen[d] = 1
          touched.push(d)
        }
        const tf = seg.tfs[p]!
        scores[d]! += (idf[ti]! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * seg.lengths[d]!) / avgdl))
        if (t.word === words.length > 0) matched[d]!++
      }
    })
    for (const d of touched) {
      const ts = seg.ts[d]!
      if (q.recent) {
        if (matched[d]! >= need) candidates.push({ seg: si, doc: d, score: scores[d]!, ts })
      } else {
        const age = ts > 0 ? Math.max(0, q.now - ts) : Infinity
        candidates.push({ seg: si, doc: d, score: scores[d]! * (1 + BOOST * Math.exp(-age / (BOOST_DAYS * DAY))), ts })
      }
    }
  })
  candidates.sort(q.recent ? (a, b) => b.ts - a.ts || b.score - a.score : (a, b) => b.score - a.score || b.ts - a.ts)

  const hits: Hit[] = []
  const ids = new Set<string>()
  const needles = [...exact, ...words]
  for (const c of candidates) {
    if (hits.length >= q.limit) break
    const seg = segs[c.seg]!
    const event = await readEventAt(m, seg.logSegment[c.doc]!, seg.logOffset[c.doc]!, seg.logLength[c.doc]!)
    if (!event || ids.has(event.id)) continue
    ids.add(event.id)
    hits.push(toHit(event, hits.length + 1, Math.round(c.score * 1000) / 1000, needles, HOST_NAMES[seg.hosts[c.doc]!] ?? event.host))
  }
  return hits
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
  project?: { name?: string; path?: string }
  kinds: EventKind[]
  since?: number
  before?: number
  limit: number
}

/** The newest events of the given kinds (no words): orientation on a project. Scans the per-document columns only. */
export async function newest(m: MemoryLayout, index: OpenIndex, q: NewestQuery): Promise<Hit[]> {
  const kindMask = new Uint8Array(EVENT_KINDS.length)
  for (const k of q.kinds) kindMask[EVENT_KINDS.indexOf(k)] = 1
  const candidates: Candidate[] = []
  index.segments.forEach((seg, si) => {
    const projectOk = seg.header.projects.map((p) => (q.project ? projectMatches(p, q.project) : true))
    for (let d = 0; d < seg.header.docs; d++) {
      if (kindMask[seg.kinds[d]!] !== 1 || !projectOk[seg.projects[d]!]) continue
      const ts = seg.ts[d]!
      if ((q.since !== undefined && ts < q.since) || (q.before !== undefined && ts >= q.before)) continue
      candidates.push({ seg: si, doc: d, score: 0, ts })
    }
  })
  candidates.sort((a, b) => b.ts - a.ts || b.seg - a.seg || b.doc - a.doc)
  const hits: Hit[] = []
  const ids = new Set<string>()
  for (const c of candidates) {
    if (hits.length >= q.limit) break
    const seg = index.segments[c.seg]!
    const event = await readEventAt(m, seg.logSegment[c.doc]!, seg.logOffset[c.doc]!, seg.logLength[c.doc]!)
    if (!event || ids.has(event.id)) continue
    ids.add(event.id)
    hits.push(toHit(event, hits.length + 1, 0, [], HOST_NAMES[seg.hosts[c.doc]!] ?? event.host))
  }
  return hits
}
