/**
 * What the explorer shows, read from the events log (already redacted): projects, their sessions, and where each
 * session's events are in the log. Kept in memory by the server and read on from where it stopped, so a new line in
 * a transcript shows after the next catch-up. Ids are hashes: no path ever reaches the page as a handle.
 */
import { createHash } from 'node:crypto'
import type { EventKind, SearchEvent } from '../memory/events.js'
import { type LogPosition, type MemoryLayout, readEventAt, readEvents, readLogState } from '../memory/log.js'
import { projectName } from '../memory/projects.js'
import { wrapupSummary } from '../memory/wrapup.js'

/** 12 hex digits, as event ids are: what the API takes and gives for projects and sessions. */
export const shortId = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12)
export const ID = /^[0-9a-f]{12}$/

interface Mark {
  id: string
  kind: EventKind
  ts: number
  segment: number
  offset: number
  length: number
}

export interface SessionInfo {
  id: string
  /** The host's own session id (for the resume command): not a path. */
  session: string
  projectId: string
  host: string
  title: string
  first: number
  last: number
  counts: { requests: number; files: number; commits: number; errors: number; commands: number; events: number }
}

export interface ProjectInfo {
  id: string
  name: string
  /** The project's folder as recorded (redacted): shown as text, never used as a handle. */
  path: string
  sessions: number
  last: number
  hosts: string[]
}

interface SessionState extends SessionInfo {
  marks: Mark[]
  /** The session's last reply (not a subagent's): how it ended. */
  lastReply?: Mark
  /** The session's latest wrap-up (`bookmark wrapup`), when one was recorded. */
  wrapup?: Mark
  paths: Set<string>
  titled: boolean
}

const TITLE_CAP = 120

function firstLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > TITLE_CAP ? `${line.slice(0, TITLE_CAP - 1)}…` : line
}

export class Catalogue {
  private end: LogPosition = { segment: 0, offset: 0 }
  private readonly sessions = new Map<string, SessionState>()
  private readonly projects = new Map<string, { path: string; sessions: Set<string> }>()
  private readonly seen = new Set<string>()

  constructor(private readonly m: MemoryLayout) {}

  /** Reads the log on from where the last call stopped. */
  async refresh(): Promise<void> {
    const state = await readLogState(this.m)
    if (state.segment < this.end.segment || (state.segment === this.end.segment && state.committed < this.end.offset)) {
      // The log was rebuilt (smaller than what was read): start over.
      this.sessions.clear()
      this.projects.clear()
      this.seen.clear()
      this.end = { segment: 0, offset: 0 }
    }
    const { end } = await readEvents(this.m, state, this.end, 5_000, (batch) => {
      for (const l of batch) this.add(l.event, l.segment, l.offset, l.length)
      return Promise.resolve()
    })
    this.end = end
  }

  private add(e: SearchEvent, segment: number, offset: number, length: number): void {
    const key = `${e.host}\n${e.session}`
    let s = this.sessions.get(key)
    const ts = e.ts ? Date.parse(e.ts) : NaN
    if (!s) {
      const projectId = shortId(`project\n${e.project}`)
      s = {
        id: shortId(`session\n${key}`),
        session: e.session,
        projectId,
        host: e.host,
        title: '',
        first: Infinity,
        last: -Infinity,
        counts: { requests: 0, files: 0, commits: 0, errors: 0, commands: 0, events: 0 },
        marks: [],
        paths: new Set(),
        titled: false,
      }
      this.sessions.set(key, s)
      const p = this.projects.get(projectId) ?? { path: e.project, sessions: new Set<string>() }
      p.sessions.add(key)
      this.projects.set(projectId, p)
    }
    if (this.seen.has(e.id)) return
    this.seen.add(e.id)
    s.marks.push({ id: e.id, kind: e.kind, ts: Number.isFinite(ts) ? ts : NaN, segment, offset, length })
    if (Number.isFinite(ts)) {
      s.first = Math.min(s.first, ts)
      s.last = Math.max(s.last, ts)
    }
    s.counts.events++
    const mark = s.marks[s.marks.length - 1]!
    if (e.kind === 'reply' && !e.sub && (!s.lastReply || !(mark.ts < s.lastReply.ts))) s.lastReply = mark
    else if (e.kind === 'wrapup' && (!s.wrapup || !(mark.ts < s.wrapup.ts))) s.wrapup = mark
    if (e.kind === 'request' && !e.sub) {
      s.counts.requests++
      if (s.title === '') s.title = firstLine(e.text)
    } else if (e.kind === 'title') {
      s.title = firstLine(e.text)
      s.titled = true
    } else if (e.kind === 'file') {
      for (const p of e.paths ?? []) s.paths.add(p)
      s.counts.files = s.paths.size
    } else if (e.kind === 'commit') s.counts.commits++
    else if (e.kind === 'error') s.counts.errors++
    else if (e.kind === 'command') s.counts.commands++
  }

  /** Every project, most recent activity first. */
  projectList(): ProjectInfo[] {
    const out: ProjectInfo[] = []
    for (const [id, p] of this.projects) {
      const ss = [...p.sessions].map((k) => this.sessions.get(k)!)
      const last = Math.max(...ss.map((s) => s.last))
      out.push({ id, name: projectName(p.path) || '(no project)', path: p.path, sessions: ss.length, last, hosts: [...new Set(ss.map((s) => s.host))].sort() })
    }
    return out.sort((a, b) => b.last - a.last || a.name.localeCompare(b.name))
  }

  project(id: string): ProjectInfo | undefined {
    return this.projectList().find((p) => p.id === id)
  }

  /** A project's sessions, most recent first. */
  sessionsOf(projectId: string): SessionInfo[] {
    const p = this.projects.get(projectId)
    if (!p) return []
    return [...p.sessions].map((k) => info(this.sessions.get(k)!)).sort((a, b) => b.last - a.last || a.id.localeCompare(b.id))
  }

  session(id: string): SessionInfo | undefined {
    for (const s of this.sessions.values()) if (s.id === id) return info(s)
    return undefined
  }

  /** The session's id for a host's session (a search hit names those). */
  sessionIdOf(host: string, session: string): string | undefined {
    return this.sessions.get(`${host}\n${session}`)?.id
  }

  /** The session's last reply (whole, or cut to `cap` characters on one line). */
  async lastReply(id: string, cap?: number): Promise<string | null> {
    const s = [...this.sessions.values()].find((x) => x.id === id)
    const e = s?.lastReply ? await readEventAt(this.m, s.lastReply.segment, s.lastReply.offset, s.lastReply.length) : undefined
    return e ? cut(e.text, cap) : null
  }

  /**
   * The session's latest wrap-up, when one was recorded: its whole text (summary, decisions, threads …), or with
   * `cap` its summary on one line, cut to `cap` characters.
   */
  async wrapUp(id: string, cap?: number): Promise<string | null> {
    const s = [...this.sessions.values()].find((x) => x.id === id)
    const e = s?.wrapup ? await readEventAt(this.m, s.wrapup.segment, s.wrapup.offset, s.wrapup.length) : undefined
    if (!e) return null
    return cap === undefined ? e.text : cut(wrapupSummary(e), cap)
  }

  /** One session's events in time order (events without a time keep their place in the log). */
  async events(id: string): Promise<SearchEvent[] | undefined> {
    const s = [...this.sessions.values()].find((x) => x.id === id)
    if (!s) return undefined
    const ordered = s.marks
      .map((mk, i) => ({ mk, i }))
      .sort((a, b) => {
        const at = Number.isFinite(a.mk.ts) ? a.mk.ts : -Infinity
        const bt = Number.isFinite(b.mk.ts) ? b.mk.ts : -Infinity
        return at - bt || a.i - b.i
      })
    const out: SearchEvent[] = []
    for (const { mk } of ordered) {
      const e = await readEventAt(this.m, mk.segment, mk.offset, mk.length)
      if (e) out.push(e)
    }
    return out
  }
}

/** `text` whole, or on one line cut to `cap` characters. */
function cut(text: string, cap: number | undefined): string {
  if (cap === undefined) return text
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > cap ? `${line.slice(0, cap - 1)}…` : line
}

function info(s: SessionState): SessionInfo {
  return {
    id: s.id,
    session: s.session,
    projectId: s.projectId,
    host: s.host,
    title: s.title || '(untitled session)',
    first: s.first,
    last: s.last,
    counts: { ...s.counts },
  }
}
