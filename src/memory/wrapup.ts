/**
 * A wrap-up: the milestone an agent records at the end of a session (a one-line summary, decisions with their
 * why, discoveries, open threads, pointers to files and commits), its input checked with one clear error per
 * problem, the digest of the session it is grounded on, and the `wrapup` search event made of it. Pure: ids,
 * time and the snapshot come in as arguments. Everything kept is redacted here.
 */
import { cutRedacted, redact } from '../redact/secrets.js'
import { InputError } from '../shared/errors.js'
import type { HostId } from '../hosts/host.js'
import { type Snapshot, openTasks } from '../snapshot/model.js'
import { type SearchEvent, eventId } from './events.js'

export const WRAPUP_VERSION = 1

export interface WrapupDecision {
  decision: string
  why: string
}

export interface Wrapup {
  version: number
  id: string
  createdAt: string
  /** The project root. */
  project: string
  session?: string
  host?: HostId
  summary: string
  decisions: WrapupDecision[]
  discoveries: string[]
  openThreads: string[]
  files: string[]
  commits: string[]
}

/** What the agent gives (MCP arguments, or the JSON on the CLI's stdin): snake_case as MCP tools spell it. */
export interface WrapupInput {
  summary: string
  decisions: WrapupDecision[]
  discoveries: string[]
  openThreads: string[]
  files: string[]
  commits: string[]
  sessionId?: string
}

export const WRAPUP_KEYS = ['summary', 'decisions', 'discoveries', 'open_threads', 'files', 'commits', 'session_id'] as const
export const SUMMARY_CHARS = 300
export const ITEM_CHARS = 600
export const ITEMS = 20
export const FILES = 50
const PATH_CHARS = 512
const COMMIT = /^[0-9a-f]{7,40}(?:\s+\S.*)?$/
/** A wrap-up's event holds more than a transcript event (TEXT_CAP): it is the session's whole milestone. */
export const WRAPUP_TEXT_CAP = 4_000

export { WRAPUP_ID } from '../store/wrapups.js'

export function wrapupId(at: Date, hex4: string): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0')
  const d = `${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}`
  const t = `${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}_${p(at.getUTCMilliseconds(), 3)}`
  return `WRAP_${d}_${t}_${hex4}`
}

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim()

function text(v: unknown, where: string, max: number): string {
  if (typeof v !== 'string') throw new InputError(`${where} must be a string, got ${JSON.stringify(v) ?? String(v)}`)
  const t = clean(v)
  if (t === '') throw new InputError(`${where} is empty`)
  if (t.length > max) throw new InputError(`${where} is ${t.length} characters long; at most ${max}`)
  return t
}

function list<T>(v: unknown, where: string, max: number, item: (x: unknown, at: string) => T): T[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) throw new InputError(`${where} must be a list, got ${JSON.stringify(v)}`)
  if (v.length > max) throw new InputError(`${where} has ${v.length} items; at most ${max}`)
  return v.map((x, i) => item(x, `${where}[${i}]`))
}

/** The agent's input checked: unknown keys, types, lengths, one line each; throws InputError naming the problem. */
export function parseWrapupInput(v: unknown, what = 'the wrap-up'): WrapupInput {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new InputError(`${what} must be a JSON object with ${WRAPUP_KEYS.join(', ')}`)
  const o = v as Record<string, unknown>
  const unknown = Object.keys(o).filter((k) => !(WRAPUP_KEYS as readonly string[]).includes(k))
  if (unknown.length > 0) throw new InputError(`${what}: unknown field "${unknown[0]}" (expected: ${WRAPUP_KEYS.join(', ')})`)
  if (o.summary === undefined) throw new InputError(`${what} needs a summary: one line saying what the session achieved`)
  if (typeof o.summary === 'string' && /[\r\n]/.test(o.summary.trim())) throw new InputError('summary must be one line')
  const input: WrapupInput = {
    summary: text(o.summary, 'summary', SUMMARY_CHARS),
    decisions: list(o.decisions, 'decisions', ITEMS, (d, at) => {
      if (d === null || typeof d !== 'object' || Array.isArray(d)) throw new InputError(`${at} must be an object {"decision": …, "why": …}`)
      const r = d as Record<string, unknown>
      const extra = Object.keys(r).filter((k) => k !== 'decision' && k !== 'why')
      if (extra.length > 0) throw new InputError(`${at}: unknown field "${extra[0]}" (expected: decision, why)`)
      if (r.why === undefined) throw new InputError(`${at} needs its why: {"decision": …, "why": …}`)
      return { decision: text(r.decision, `${at}.decision`, ITEM_CHARS), why: text(r.why, `${at}.why`, ITEM_CHARS) }
    }),
    discoveries: list(o.discoveries, 'discoveries', ITEMS, (x, at) => text(x, at, ITEM_CHARS)),
    openThreads: list(o.open_threads, 'open_threads', ITEMS, (x, at) => text(x, at, ITEM_CHARS)),
    files: list(o.files, 'files', FILES, (x, at) => text(x, at, PATH_CHARS)),
    commits: list(o.commits, 'commits', ITEMS, (x, at) => {
      const c = text(x, at, ITEM_CHARS)
      if (!COMMIT.test(c))
        throw new InputError(`${at} must be a commit hash (7 to 40 hex digits), optionally followed by its subject; got ${JSON.stringify(c)}`)
      return c
    }),
  }
  if (o.session_id !== undefined) input.sessionId = text(o.session_id, 'session_id', 200)
  return input
}

/** `WRAPUP_KEYS` from CLI flags: `--decision "what -- why"` pairs a decision with its why. */
export function inputFromFlags(f: {
  summary?: string
  decision?: string[]
  discovery?: string[]
  open?: string[]
  file?: string[]
  commit?: string[]
  sessionId?: string
}): WrapupInput {
  const decisions = (f.decision ?? []).map((d, i) => {
    const at = d.indexOf(' -- ')
    if (at === -1) throw new InputError(`--decision number ${i + 1} needs its why: --decision "what was decided -- why"`)
    return { decision: d.slice(0, at), why: d.slice(at + 4) }
  })
  return parseWrapupInput(
    {
      ...(f.summary !== undefined ? { summary: f.summary } : {}),
      decisions,
      discoveries: f.discovery ?? [],
      open_threads: f.open ?? [],
      files: f.file ?? [],
      commits: f.commit ?? [],
      ...(f.sessionId !== undefined ? { session_id: f.sessionId } : {}),
    },
    'the wrap-up (--summary, --decision, --discovery, --open, --file, --commit)',
  )
}

/** The stored wrap-up: every text redacted. */
export function makeWrapup(input: WrapupInput, at: { id: string; createdAt: string; project: string; session?: string; host?: HostId }): Wrapup {
  const r = (s: string): string => cutRedacted(s, ITEM_CHARS)
  const session = input.sessionId ?? at.session
  return {
    version: WRAPUP_VERSION,
    id: at.id,
    createdAt: at.createdAt,
    project: redact(at.project),
    ...(session !== undefined ? { session: redact(session) } : {}),
    ...(at.host ? { host: at.host } : {}),
    summary: r(input.summary),
    decisions: input.decisions.map((d) => ({ decision: r(d.decision), why: r(d.why) })),
    discoveries: input.discoveries.map(r),
    openThreads: input.openThreads.map(r),
    files: input.files.map(r),
    commits: input.commits.map(r),
  }
}

/** The wrap-up as one searchable text (summary first: it is what a snippet shows). */
export function wrapupEventText(w: Wrapup): string {
  const parts = [`Wrap-up: ${w.summary}`]
  if (w.decisions.length > 0) parts.push(`Decisions: ${w.decisions.map((d) => `${d.decision} (why: ${d.why})`).join('; ')}`)
  if (w.discoveries.length > 0) parts.push(`Discoveries: ${w.discoveries.join('; ')}`)
  if (w.openThreads.length > 0) parts.push(`Open threads: ${w.openThreads.join('; ')}`)
  if (w.files.length > 0) parts.push(`Files: ${w.files.join(', ')}`)
  if (w.commits.length > 0) parts.push(`Commits: ${w.commits.join('; ')}`)
  return cutRedacted(parts.join('. '), WRAPUP_TEXT_CAP)
}

/** The `wrapup` event: it points at the wrap-up's file (line 1), which holds it whole. */
export function wrapupEvent(w: Wrapup, file: string): SearchEvent {
  return {
    id: eventId(file, 1, 'wrapup'),
    kind: 'wrapup',
    ts: w.createdAt,
    project: w.project,
    session: w.session ?? '',
    host: w.host ?? 'claude',
    ...(w.files.length > 0 ? { paths: w.files } : {}),
    ...(w.openThreads.length > 0 ? { threads: w.openThreads } : {}),
    summary: w.summary,
    text: wrapupEventText(w),
    transcript: file,
    line: 1,
  }
}

/** A wrap-up event's summary: its own field, or the start of its text (an event logged before it had the field). */
export function wrapupSummary(e: Pick<SearchEvent, 'text' | 'summary'>): string {
  if (typeof e.summary === 'string') return e.summary
  const body = e.text.startsWith('Wrap-up: ') ? e.text.slice('Wrap-up: '.length) : e.text
  const end = body.search(/\. (?:Decisions|Discoveries|Open threads|Files|Commits): /)
  return end === -1 ? body : body.slice(0, end)
}

export function wrapupText(w: Wrapup, file?: string): string {
  const lines = [`Wrap-up ${w.id} (${w.createdAt}${w.session ? `, session ${w.session.slice(0, 8)}` : ''}): ${w.summary}`]
  const block = (title: string, items: string[]): void => {
    if (items.length > 0) lines.push(`${title}:`, ...items.map((x) => `- ${x}`))
  }
  block(
    'Decisions',
    w.decisions.map((d) => `${d.decision} (why: ${d.why})`),
  )
  block('Discoveries', w.discoveries)
  block('Open threads', w.openThreads)
  block('Files', w.files)
  block('Commits', w.commits)
  if (file) lines.push(`Stored in ${file}.`)
  return lines.join('\n')
}

/** What the session did, from its latest snapshot: what the agent grounds the wrap-up on. */
export interface Digest {
  snapshot: string
  session: string
  span: { first: string | null; last: string | null }
  requests: { count: number; latest: string[] }
  files: { path: string; op: string }[]
  commits: string[]
  openTasks: string[]
  unresolvedErrors: number
}

const DIGEST_REQUESTS = 5
const DIGEST_FILES = 30

export function digestOf(s: Snapshot): Digest {
  const commits: string[] = []
  for (const g of s.git)
    if (g.event.kind === 'commit') commits.push(`${g.event.hash ? `${g.event.hash.slice(0, 12)} ` : ''}${g.event.message.split('\n')[0] ?? ''}`)
  return {
    snapshot: s.id,
    session: s.session.id,
    span: { first: s.session.firstTs ?? null, last: s.session.lastTs ?? null },
    requests: { count: s.requests.count, latest: s.requests.recent.slice(-DIGEST_REQUESTS).map((p) => cutRedacted(clean(p.text), 300)) },
    files: s.files.slice(0, DIGEST_FILES).map((f) => ({ path: f.path, op: f.op })),
    commits: commits.slice(-10),
    openTasks: openTasks(s).map((t) => cutRedacted(clean(t.text), 200)),
    unresolvedErrors: s.errors.filter((e) => !e.resolved).length,
  }
}

export function digestText(d: Digest): string {
  const lines = [
    `Session ${d.session} (snapshot ${d.snapshot}), ${d.span.first ?? '?'} to ${d.span.last ?? '?'}: ${d.requests.count} requests, ${d.files.length} files changed, ${d.commits.length} commits, ${d.openTasks.length} open tasks, ${d.unresolvedErrors} unresolved errors.`,
  ]
  const block = (title: string, items: string[]): void => {
    if (items.length > 0) lines.push(`${title}:`, ...items.map((x) => `- ${x}`))
  }
  block('Latest requests', d.requests.latest)
  block(
    'Files changed',
    d.files.map((f) => `${f.op} ${f.path}`),
  )
  block('Commits', d.commits)
  block('Open tasks', d.openTasks)
  lines.push(
    'Record the wrap-up from this: a one-line summary, the decisions with why, discoveries, open threads, and the files and commits that matter (`bookmark wrapup --summary …` or bookmark_wrapup).',
  )
  return lines.join('\n')
}
