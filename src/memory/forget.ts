/**
 * `bookmark forget` in the search memory: the events of the forgotten sessions (with --all, of the project, and
 * the events of the wrap-ups being removed) are blanked in the log (their bytes overwritten: the text is gone from
 * disk, every other event stays where the index says it is), and the index segments that held them are built
 * again without them. Then every transcript of those sessions (known to the log, to the host stores, to a hint or
 * to the project's capture state) gets a checkpoint at its end as it is now, with `forgot` set there and nothing
 * in its carry: no later read, not even one from the start of a rewritten transcript, logs those lines again, and
 * a line not yet logged is never logged. Lines a session writes after this are logged as they come.
 */
import type { HostId } from '../hosts/host.js'
import { hostOf } from '../hosts/index.js'
import { sniffHost } from '../hosts/codex/sniff.js'
import { readHead } from '../hosts/codex/transcripts.js'
import type { LockOptions } from '../store/lock.js'
import { statOrNone } from '../shared/fsp.js'
import { readTranscript } from '../transcript/read.js'
import { listCheckpoints, readHints } from './checkpoints.js'
import type { EventCarry } from './events.js'
import { rebuildCovering } from './indexer.js'
import { type Checkpoint, type LoggedEvent, appendEvents, blankEvents, memoryLayout, readEvents, readLogState, withMemoryLock } from './log.js'
import { projectMatches } from './projects.js'
import { allSources } from './sources.js'

export interface MemoryForget {
  sessions: string[]
  /** --all: every event whose project is this folder or inside it. */
  project?: string
  /** Wrap-up files being removed: their events go too. */
  wrapups: string[]
  /** The sessions' transcripts as the project's capture state names them. */
  transcripts: { path: string; session: string }[]
}

export interface MemoryForgotten {
  /** Events blanked in the log. */
  events: number
  /** Transcripts whose checkpoint now holds their lines off. */
  transcripts: number
}

interface Target {
  host?: HostId
  session: string
  cp?: Checkpoint
}

/** The checkpoint of `path` at its end now, its lines forgotten; undefined for a file search does not read. */
async function forgottenToEnd(path: string, t: Target): Promise<Checkpoint | undefined> {
  const { cp } = t
  const carry: EventCarry = { pending: {}, ...(cp?.carry.project !== undefined ? { project: cp.carry.project } : {}) }
  const s = await statOrNone(path).catch(() => undefined)
  if (!s?.isFile()) return cp ? { ...cp, carry, forgot: Math.max(cp.lines, cp.forgot ?? 0) } : undefined
  const host = t.host ?? sniffHost(await readHead(path).catch(() => ''))
  if (host !== 'claude' && host !== 'codex') return undefined
  const from = cp ? { offset: cp.offset, lines: cp.lines, head: cp.head, ...(cp.tail ? { tail: cp.tail } : {}) } : undefined
  const stats = await readTranscript(path, from, hostOf(host).parseLine, () => undefined)
  return {
    ...stats.cursor,
    host,
    session: cp?.session ?? t.session,
    size: s.size,
    mtime: s.mtimeMs,
    carry,
    events: stats.restarted ? 0 : (cp?.events ?? 0),
    unreadable: (stats.restarted ? 0 : (cp?.unreadable ?? 0)) + stats.skipped,
    forgot: stats.cursor.lines,
  }
}

/** Forgets what `req` names; undefined when there is no memory store. */
export async function forgetMemory(bookmarkHome: string, env: NodeJS.ProcessEnv, req: MemoryForget, lock?: LockOptions): Promise<MemoryForgotten | undefined> {
  const m = memoryLayout(bookmarkHome)
  if ((await statOrNone(m.state)) === undefined) return undefined
  const sessions = new Set(req.sessions)
  const wrapups = new Set(req.wrapups)
  const project = req.project !== undefined ? { path: req.project } : undefined
  const inProject = (p: string | undefined): boolean => project !== undefined && p !== undefined && p !== '' && projectMatches(p, project)
  // The host stores' transcripts of these sessions, found before the lock is taken (a glob of the stores).
  const found = sessions.size > 0 ? (await allSources(env)).filter((s) => sessions.has(s.session)) : []
  return withMemoryLock(
    m,
    async () => {
      const state = await readLogState(m)
      const picked: LoggedEvent[] = []
      await readEvents(m, state, { segment: 0, offset: 0 }, 5_000, async (batch) => {
        for (const e of batch) if (sessions.has(e.event.session) || wrapups.has(e.event.transcript) || inProject(e.event.project)) picked.push(e)
      })
      blankEvents(m, picked)
      if (picked.length > 0) await rebuildCovering(m, picked)

      const targets = new Map<string, Target>()
      for (const [path, cp] of Object.entries(await listCheckpoints(m, state)))
        if (sessions.has(cp.session) || inProject(cp.carry.project)) targets.set(path, { host: cp.host, session: cp.session, cp })
      for (const h of await readHints(m)) if (sessions.has(h.source.session) && !targets.has(h.source.path)) targets.set(h.source.path, h.source)
      for (const s of found) if (!targets.has(s.path)) targets.set(s.path, s)
      for (const t of req.transcripts) if (!targets.has(t.path)) targets.set(t.path, { session: t.session })
      const changed: Record<string, Checkpoint> = {}
      for (const [path, t] of targets) {
        const cp = await forgottenToEnd(path, t)
        if (cp) changed[path] = cp
      }
      if (Object.keys(changed).length > 0 || state.legacy) await appendEvents(m, state, [], changed)
      return { events: picked.length, transcripts: Object.keys(changed).length }
    },
    lock,
  )
}
