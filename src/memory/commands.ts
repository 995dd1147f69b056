/**
 * `bookmark index`, `bookmark search` and `bookmark get`: what each does and the text it prints.
 */
import { isAbsolute, join, resolve } from 'node:path'
import { InputError } from '../shared/errors.js'
import { LockTimeoutError } from '../shared/errors.js'
import { type Deps, isHomeScope } from '../shared/deps.js'
import { open, readdir, statOrNone } from '../shared/fsp.js'
import { findProjectRoot } from '../repo/root.js'
import { EVENT_KINDS, type EventKind, type SearchEvent } from './events.js'
import { type IngestStats, ingest } from './ingest.js'
import { type OpenIndex, catchUpIndex, openIndex, readManifest } from './indexer.js'
import { type MemoryLayout, comparePosition, ensureMemory, memoryLayout, readLogState, segmentPath, withMemoryLock } from './log.js'
import { listCheckpoints, readHints, readSeen, removeHints } from './checkpoints.js'
import { type Hit, type SearchQuery, newest, projectName, search } from './query.js'
import { type TranscriptSource, allSources } from './sources.js'

export interface IndexOptions {
  backfill?: boolean
  rebuild?: boolean
  status?: boolean
  progress?: (line: string) => void
}

export interface IndexStatus {
  events: number
  segments: number
  transcripts: number
  unreadable: number
  logBytes: number
  pending: boolean
}

export async function indexStatus(m: MemoryLayout): Promise<IndexStatus> {
  const state = await readLogState(m)
  const manifest = await readManifest(m)
  const sources = Object.values(await listCheckpoints(m, state))
  let logBytes = 0
  for (let s = 0; s <= state.segment; s++) {
    try {
      const fh = await open(segmentPath(m, s), 'r')
      logBytes += (await fh.stat()).size
      await fh.close()
    } catch {
      // not written yet
    }
  }
  return {
    events: manifest.segments.reduce((n, s) => n + s.docs, 0),
    segments: manifest.segments.length,
    transcripts: sources.length,
    unreadable: sources.reduce((n, s) => n + s.unreadable, 0),
    logBytes,
    pending: manifest.upTo.segment !== state.segment || manifest.upTo.offset !== state.committed,
  }
}

export function statusText(s: IndexStatus): string {
  return `Index: ${s.events} events in ${s.segments} segments from ${s.transcripts} transcripts (${s.unreadable} unreadable lines; log ${s.logBytes} bytes)${s.pending ? '; new events not indexed yet (`bookmark index`)' : ''}.`
}

export interface IndexResult {
  ingest?: IngestStats
  added: number
  torn: number
  status: IndexStatus
}

/** `bookmark index`: with --backfill, every transcript of every host first; then the index catches up with the log. */
export async function runIndex(opts: IndexOptions, deps: Deps): Promise<IndexResult> {
  if (opts.status) return { added: 0, torn: 0, status: await indexStatus(memoryLayout(deps.bookmarkHome)) }
  const m = await ensureMemory(deps.bookmarkHome)
  let ingested: IngestStats | undefined
  if (opts.backfill) {
    const sources = await allSources(deps.env)
    ingested = await ingest(m, sources, {
      backfill: true,
      ...(opts.progress ? { onProgress: (done: number, total: number) => opts.progress!(`reading transcripts: ${done}/${total}`) } : {}),
    })
  }
  const run = await withMemoryLock(m, () => catchUpIndex(m, opts.rebuild === true))
  return { ...(ingested ? { ingest: ingested } : {}), added: run.added, torn: run.torn, status: await indexStatus(m) }
}

export function indexText(r: IndexResult): string {
  const parts: string[] = []
  if (r.ingest) {
    const i = r.ingest
    parts.push(
      `Backfill: ${i.files} transcripts, ${i.read} read, ${i.events} new events, ${i.unreadable} unreadable lines${i.failed > 0 ? `, ${i.failed} files could not be read` : ''}.`,
    )
  }
  parts.push(`Indexed ${r.added} new events${r.torn > 0 ? ` (${r.torn} damaged log lines skipped)` : ''}. ${statusText(r.status)}`)
  return parts.join('\n')
}

/**
 * What `search` catches up on before answering: the transcripts captures named in hints (they could not append),
 * the transcripts already known and, once a backfill ran, any new one of the host stores; then the index takes
 * what the log gained (captures append without indexing).
 */
async function catchUp(m: MemoryLayout, deps: Deps): Promise<void> {
  const state = await readLogState(m)
  const seen = await readSeen(m, state)
  const hints = await readHints(m)
  const byPath = new Map<string, TranscriptSource>()
  // Never backfilled: only what captures named (`bookmark index --backfill` reads the rest).
  if (seen.backfilled) for (const s of await allSources(deps.env)) byPath.set(s.path, s)
  for (const [path, e] of Object.entries(seen.sources)) if (!byPath.has(path)) byPath.set(path, { path, host: e.host, session: e.session })
  for (const h of hints) if (!byPath.has(h.source.path)) byPath.set(h.source.path, h.source)
  const lock = { timeoutMs: 2_000 }
  try {
    if (byPath.size > 0) await ingest(m, [...byPath.values()], { lock })
    // A hinted transcript in seen.json now is found there by the next catch-up; one that is gone needs nothing.
    const known = (await readSeen(m)).sources
    const done = []
    for (const h of hints) if (known[h.source.path] || !(await statOrNone(h.source.path))) done.push(h.name)
    await removeHints(m, done)
    const now = await readLogState(m)
    if (comparePosition((await readManifest(m)).upTo, { segment: now.segment, offset: now.committed }) < 0) await withMemoryLock(m, () => catchUpIndex(m), lock)
  } catch (e) {
    // A backfill holds the lock: answer from what is indexed.
    if (!(e instanceof LockTimeoutError)) throw e
    deps.log('the index is being written by another bookmark process: answering from what it holds now')
  }
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
    const want = p.includes('/') || p.includes('\\') || p === '.' || p === '..' ? { path: isAbsolute(p) ? resolve(p) : resolve(cwd, p) } : { name: p }
    return { want, label: want.path ?? p, scope: 'project' }
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
    cache.index = await openIndex(m)
    cache.stamp = stamp
  }
  return cache.index
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
  return { ...base, hits: await search(m, await readyIndex(m, deps, cache), q) }
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
  const index = await readyIndex(m, deps, cache)
  for (const [i, s] of ORIENT_SECTIONS.entries()) {
    // The newest wrap-up is one milestone, whatever --limit asks of the lists.
    out.sections[i]!.hits = await newest(m, index, { project: want, kinds: s.kinds, ...t, limit: s.kinds[0] === 'wrapup' ? s.limit : (opts.limit ?? s.limit) })
  }
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

/** `bookmark get ID`: the event whose id it is, read from the log. */
export async function getEvent(id: string, deps: Deps): Promise<SearchEvent> {
  if (!/^[0-9a-f]{12}$/.test(id)) throw new InputError(`not an event id: "${id}" (12 hex digits, as \`bookmark search\` prints them)`)
  const m = memoryLayout(deps.bookmarkHome)
  const state = await readLogState(m)
  const needle = Buffer.from(`{"id":"${id}"`)
  for (let s = state.segment; s >= 0; s--) {
    let data: Buffer
    try {
      const fh = await open(segmentPath(m, s), 'r')
      try {
        const size = s === state.segment ? state.committed : (await fh.stat()).size
        data = Buffer.alloc(size)
        await fh.read(data, 0, size, 0)
      } finally {
        await fh.close()
      }
    } catch {
      continue
    }
    const at = data.lastIndexOf(needle)
    if (at === -1) continue
    const end = data.indexOf(0x0a, at)
    try {
      return JSON.parse(data.toString('utf8', at, end === -1 ? data.length : end)) as SearchEvent
    } catch {
      continue
    }
  }
  throw new InputError(`no event ${id} in the index (\`bookmark search\` prints the ids)`)
}

export function eventText(e: SearchEvent): string {
  const lines = [
    `Event ${e.id}: ${e.kind}${e.tool ? ` (${e.tool})` : ''}${e.sub ? ', by a subagent' : ''}`,
    `When: ${e.ts ?? 'unknown'}`,
    `Project: ${e.project || '(unknown)'}`,
    `Session: ${e.session} (${e.host})`,
  ]
  if (e.paths && e.paths.length > 0) lines.push(`Paths: ${e.paths.join(', ')}`)
  lines.push('', e.text, '', `Read more: ${e.transcript}:${e.line} (the transcript line, e.g. sed -n '${e.line}p' '${e.transcript}')`)
  return lines.join('\n')
}
