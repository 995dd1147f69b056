/**
 * `bookmark search`: the search, orientation on a project, and the text they print (log-commands.ts: `bookmark
 * index` and `bookmark get`). It reads; what writes (the full catch-up) is loaded only when needed.
 */
import { isAbsolute, join, resolve } from 'node:path'
import { InputError } from '../shared/errors.js'
import { type Deps, isHomeScope } from '../shared/deps.js'
import { readdir, statOrNone } from '../shared/fsp.js'
import { findProjectRoot } from '../repo/root.js'
import { expandAlias, homeAliases } from '../config/aliases.js'
import { EVENT_KINDS, type EventKind } from './kinds.js'
import { type OpenIndex, closeIndex, openIndex } from './index-read.js'
import { type MemoryLayout, memoryLayout } from './paths.js'
import { projectName } from './projects.js'
import { type Hit, type SearchQuery, newest, search } from './query.js'
import { lookAtStores } from './sources.js'
import { logStamp, readStamp, stampVerdict, writeStamp } from './stamp.js'

/**
 * What `search` does before answering: nothing when the stamp says nothing changed since the last full catch-up
 * (stamp.ts: stats of log.json, the hints folder and the transcript folders, every transcript's at most every
 * LOOK_EVERY_MS; no lock); else the full catch-up (catch-up.ts).
 */
async function catchUp(m: MemoryLayout, deps: Deps): Promise<void> {
  if (logStamp(m) === undefined) return // no log: nothing was ever backfilled
  const stamp = readStamp(m)
  const now = deps.now().getTime()
  const verdict = stampVerdict(stamp, m, now)
  if (verdict === 'fresh') return
  if (verdict === 'look' && stamp) {
    const look = lookAtStores(deps.env)
    if (look.digest === stamp.digest) {
      try {
        writeStamp(m, { ...stamp, ...look, lookedAt: now })
      } catch {
        // a stamp not renewed costs the next search this look again
      }
      return
    }
  }
  const { fullCatchUp } = await import('./catch-up.js')
  await fullCatchUp(m, deps)
}

const DURATION = /^(\d+)\s*([hdw])$/

/** `7d`, `12h`, `2w` (before `now`) or a date (`2025-11-02`, an ISO time). */
export function parseWhen(value: string, flag: string, now: number): number {
  const d = DURATION.exec(value.trim())
  if (d) return now - Number(d[1]) * { h: 3_600_000, d: 86_400_000, w: 604_800_000 }[d[2] as 'h' | 'd' | 'w']
  if (/^\d{4}-\d\d-\d\d/.test(value.trim())) {
    const t = Date.parse(value.trim())
    if (Number.isFinite(t)) return t
  }
  throw new InputError(`${flag} takes a duration such as 7d, 12h or 2w, or a date such as 2025-11-02; got "${value}"`)
}

export function parseKinds(value: string): EventKind[] {
  const kinds = value
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '')
  const bad = kinds.filter((k) => !(EVENT_KINDS as readonly string[]).includes(k))
  if (bad.length > 0 || kinds.length === 0) throw new InputError(`--kind takes a comma-separated list of ${EVENT_KINDS.join(', ')}; got "${value}"`)
  return kinds as EventKind[]
}

export interface SearchOptions {
  project?: string
  /** Every project, though the command runs inside one. */
  all?: boolean
  kind?: string
  since?: string
  before?: string
  recent?: boolean
  limit?: number
}

/** What a long-lived process (the MCP server) keeps between searches: the open index, and when it last caught up. */
export interface SearchCache {
  index?: OpenIndex
  stamp?: string
  caughtUpAt?: number
}

/** A long-lived process looks for new transcripts at most this often; a CLI run always does. */
export const CATCH_UP_EVERY_MS = 30_000

export interface SearchResult {
  hits: Hit[]
  /** The project searched: named by --project, or the one the command runs in (`scope` says which). */
  project?: string
  scope: 'all' | 'project' | 'current'
}

/** The project filter: --project, else (without --all) the project `cwd` is in; none outside any project. */
async function projectFilter(
  opts: SearchOptions,
  cwd: string,
  deps: Deps,
): Promise<{ want?: SearchQuery['project']; label?: string; scope: SearchResult['scope'] }> {
  if (opts.project !== undefined) {
    if (opts.all) throw new InputError('--project and --all contradict each other: give one')
    const p = opts.project.trim()
    if (p === '') throw new InputError('--project takes a project folder name or path')
    if (p.includes('/') || p.includes('\\') || p === '.' || p === '..') {
      const path = isAbsolute(p) ? resolve(p) : resolve(cwd, p)
      return { want: { path }, label: path, scope: 'project' }
    }
    // A name: the projects whose folder or repository is so named, and what a configured alias of it stands for.
    const alias = expandAlias(homeAliases(deps.bookmarkHome), p)
    return { want: { name: p, ...(alias ? { alias } : {}) }, label: p, scope: 'project' }
  }
  if (opts.all) return { scope: 'all' }
  const { root, reason } = await findProjectRoot(resolve(cwd), deps.env.CLAUDE_PROJECT_DIR)
  if (reason === 'cwd' || isHomeScope(root, deps.env)) return { scope: 'all' }
  return { want: { path: root }, label: root, scope: 'current' }
}

function timeFilters(q: { since?: number; before?: number }, opts: SearchOptions, now: number): void {
  if (opts.since !== undefined) q.since = parseWhen(opts.since, '--since', now)
  if (opts.before !== undefined) q.before = parseWhen(opts.before, '--before', now)
}

/** The index, caught up with the transcripts: kept open in `cache` while its manifest does not change. */
export async function readyIndex(m: MemoryLayout, deps: Deps, cache: SearchCache | undefined): Promise<OpenIndex> {
  const now = deps.now().getTime()
  if (!cache || cache.caughtUpAt === undefined || now - cache.caughtUpAt >= CATCH_UP_EVERY_MS) {
    await catchUp(m, deps)
    if (cache) cache.caughtUpAt = now
  }
  if (!cache) return openIndex(m)
  const st = await statOrNone(join(m.index, 'manifest.json'))
  const stamp = st ? `${st.mtimeMs}:${st.size}:${st.ino}` : 'none'
  if (!cache.index || cache.stamp !== stamp) {
    const old = cache.index
    cache.index = await openIndex(m)
    cache.stamp = stamp
    if (old) closeIndex(old)
  }
  return cache.index
}

/** Runs `fn` on the ready index; an index opened for this call alone (no cache) is closed after it. */
async function withIndex<T>(m: MemoryLayout, deps: Deps, cache: SearchCache | undefined, fn: (index: OpenIndex) => Promise<T>): Promise<T> {
  const index = await readyIndex(m, deps, cache)
  try {
    return await fn(index)
  } finally {
    if (!cache) closeIndex(index)
  }
}

export async function runSearch(query: string, opts: SearchOptions, cwd: string, deps: Deps, cache?: SearchCache): Promise<SearchResult> {
  if (query.trim() === '') throw new InputError('search needs a query (words, a file name, an identifier), or --project P alone to orient on a project')
  const now = deps.now().getTime()
  const q: SearchQuery = { query, limit: opts.limit ?? 10, now, ...(opts.recent ? { recent: true } : {}) }
  if (opts.kind !== undefined) q.kinds = parseKinds(opts.kind)
  timeFilters(q, opts, now)
  const { want, label, scope } = await projectFilter(opts, cwd, deps)
  if (want) q.project = want
  const base: Omit<SearchResult, 'hits'> = { scope, ...(label !== undefined ? { project: label } : {}) }
  const m = memoryLayout(deps.bookmarkHome)
  if ((await readdir(m.dir).catch(() => undefined)) === undefined) return { ...base, hits: [] }
  return { ...base, hits: await withIndex(m, deps, cache, (index) => search(m, index, q)) }
}

/** What orientation shows of a project, newest first: the kinds and how many of each. */
export const ORIENT_SECTIONS: readonly { title: string; kinds: EventKind[]; limit: number }[] = [
  { title: 'Latest wrap-up', kinds: ['wrapup'], limit: 1 },
  { title: 'Latest requests', kinds: ['request'], limit: 5 },
  { title: 'Latest commits', kinds: ['commit'], limit: 5 },
  { title: 'Latest errors', kinds: ['error'], limit: 5 },
  { title: 'Latest compactions', kinds: ['compaction'], limit: 2 },
]

export interface Orientation {
  project: string
  scope: SearchResult['scope']
  sections: { title: string; hits: Hit[] }[]
}

/** `search --project P` with no query: the project's newest wrap-up, then its latest requests, commits, errors and compactions. */
export async function runOrient(opts: SearchOptions, cwd: string, deps: Deps, cache?: SearchCache): Promise<Orientation> {
  if (opts.recent || opts.kind !== undefined) throw new InputError('--recent and --kind need a query; without one, search --project P orients on the project')
  const { want, label, scope } = await projectFilter(opts, cwd, deps)
  if (!want || label === undefined)
    throw new InputError('search needs a query (words, a file name, an identifier), or --project P alone to orient on a project')
  const now = deps.now().getTime()
  const t: { since?: number; before?: number } = {}
  timeFilters(t, opts, now)
  const m = memoryLayout(deps.bookmarkHome)
  const out: Orientation = { project: label, scope, sections: ORIENT_SECTIONS.map((s) => ({ title: s.title, hits: [] })) }
  if ((await readdir(m.dir).catch(() => undefined)) === undefined) return out
  // The newest wrap-up is one milestone, whatever --limit asks of the lists.
  const groups = ORIENT_SECTIONS.map((s) => ({ kinds: s.kinds, limit: s.kinds[0] === 'wrapup' ? s.limit : (opts.limit ?? s.limit) }))
  const lists = await withIndex(m, deps, cache, (index) => newest(m, index, { project: want, groups, ...t }))
  lists.forEach((hits, i) => (out.sections[i]!.hits = hits))
  return out
}

export function orientText(o: Orientation): string {
  const shown = o.sections.filter((s) => s.hits.length > 0)
  if (shown.length === 0) return `Nothing indexed for project ${o.project} (\`bookmark index --status\` says what is indexed).`
  return [
    `Project ${o.project}: the latest of its sessions, newest first (\`bookmark get ID\` for one in full).`,
    ...shown.map((s) => `\n${s.title}:\n${hitsText(s.hits)}${threadsText(s.hits)}`),
  ].join('\n')
}

/** A wrap-up's open threads under its hit: where the next session picks up. */
function threadsText(hits: Hit[]): string {
  const threads = hits.flatMap((h) => h.threads ?? [])
  return threads.length === 0 ? '' : `\n   Open threads:\n${threads.map((t) => `   - ${t}`).join('\n')}`
}

/** The line a search inside a project prints first: whose events these are and how to widen. */
export function scopeNote(r: { scope: SearchResult['scope']; project?: string }): string | undefined {
  return r.scope === 'current' ? `Searching project ${r.project} (the current one); --all searches every project.` : undefined
}

function shortDate(ts: string | null): string {
  if (!ts) return '????-??-?? ??:??'
  const d = new Date(ts)
  return Number.isFinite(d.getTime()) ? d.toISOString().slice(0, 16).replace('T', ' ') : '????-??-?? ??:??'
}

export function hitsText(hits: Hit[]): string {
  return hits
    .map(
      (h) =>
        `${h.rank}. ${shortDate(h.ts)}  ${projectName(h.project) || '(no project)'}  ${h.kind}  ${h.session.slice(0, 8)}  ${h.snippet}\n   ${h.transcript}:${h.line}  (id ${h.id})`,
    )
    .join('\n')
}
