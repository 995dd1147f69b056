/**
 * `bookmark forget` in the search memory: the events of the forgotten sessions (with --all, of the project, and
 * the events of the wrap-ups being removed) are blanked in the log (their bytes overwritten: the text is gone from
 * disk, every other event stays where the index says it is), the index segments that held them are built again
 * without them, and the checkpoints of the sessions' transcripts are marked (`forgot`) and emptied of what their
 * carry quoted, so that no later read, not even one from the start of a rewritten transcript, logs those lines
 * again. Lines a session writes after this are logged as they come, as a capture starts over.
 */
import type { LockOptions } from '../store/lock.js'
import { statOrNone } from '../shared/fsp.js'
import { listCheckpoints } from './checkpoints.js'
import { rebuildCovering } from './indexer.js'
import { type Checkpoint, type LoggedEvent, appendEvents, blankEvents, memoryLayout, readEvents, readLogState, withMemoryLock } from './log.js'
import { projectMatches } from './query.js'

export interface MemoryForget {
  sessions: string[]
  /** --all: every event whose project is this folder or inside it. */
  project?: string
  /** Wrap-up files being removed: their events go too. */
  wrapups: string[]
}

export interface MemoryForgotten {
  /** Events blanked in the log. */
  events: number
  /** Transcripts whose checkpoint now holds their lines off. */
  transcripts: number
}

/** Forgets what `req` names; undefined when there is no memory store. */
export async function forgetMemory(bookmarkHome: string, req: MemoryForget, lock?: LockOptions): Promise<MemoryForgotten | undefined> {
  const m = memoryLayout(bookmarkHome)
  if ((await statOrNone(m.state)) === undefined) return undefined
  const sessions = new Set(req.sessions)
  const wrapups = new Set(req.wrapups)
  const project = req.project !== undefined ? { path: req.project } : undefined
  const inProject = (p: string | undefined): boolean => project !== undefined && p !== undefined && p !== '' && projectMatches(p, project)
  return withMemoryLock(
    m,
    async () => {
      const state = await readLogState(m)
      const picked: LoggedEvent[] = []
      await readEvents(m, state, { segment: 0, offset: 0 }, 5_000, async (batch) => {
        for (const e of batch) if (sessions.has(e.event.session) || wrapups.has(e.event.transcript) || inProject(e.event.project)) picked.push(e)
      })
      blankEvents(m, picked)
      const changed: Record<string, Checkpoint> = {}
      for (const [path, cp] of Object.entries(await listCheckpoints(m, state))) {
        if (!sessions.has(cp.session) && !inProject(cp.carry.project)) continue
        // The calls waiting for their result quoted the session: gone with it (their results make no event now).
        changed[path] = { ...cp, forgot: cp.lines, carry: { pending: {}, ...(cp.carry.project !== undefined ? { project: cp.carry.project } : {}) } }
      }
      if (Object.keys(changed).length > 0 || state.legacy) await appendEvents(m, state, [], changed)
      if (picked.length > 0) await rebuildCovering(m, picked)
      return { events: picked.length, transcripts: Object.keys(changed).length }
    },
    lock,
  )
}
