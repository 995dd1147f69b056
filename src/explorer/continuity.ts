/**
 * Continuity figures of a project from its store (`.bookmark/`, read through StoreReader, which checks the seals):
 * snapshots, compactions survived, narrative blocks asked for. The registry in the bookmark home says which stores
 * and sessions belong to a project folder.
 */
import { StoreReader } from '../store/reader.js'
import { readRegistry } from '../store/registry.js'
import { sameProject } from './handoff.js'

export interface Continuity {
  /** Stores found for the project (its folder, or a folder inside it, captured by this bookmark home). */
  stores: number
  snapshots: number
  /** Sessions the stores know (captured at least once). */
  sessions: number
  compactions: number
  narrativeBlocks: number
  lastSnapshotAt: string | null
  /** Sizes of the restores given: the store does not record them. */
  restoreSizes: null
  /** Why a store was not read (not sealed by this user's key, unreadable). */
  problems: string[]
}

export async function continuityOf(bookmarkHome: string, project: string): Promise<Continuity> {
  const out: Continuity = { stores: 0, snapshots: 0, sessions: 0, compactions: 0, narrativeBlocks: 0, lastSnapshotAt: null, restoreSizes: null, problems: [] }
  const { registry } = await readRegistry(bookmarkHome)
  const roots = new Map<string, Set<string>>()
  for (const e of registry.entries) {
    if (!sameProject(e.project, project)) continue
    const ss = roots.get(e.project) ?? new Set<string>()
    if (typeof e.sessionId === 'string') ss.add(e.sessionId)
    roots.set(e.project, ss)
  }
  for (const [root, sessions] of roots) {
    const reader = new StoreReader(root, bookmarkHome)
    try {
      const { index, problem, untrusted } = await reader.readIndex()
      const why = problem ?? untrusted
      if (why) out.problems.push(why)
      out.stores++
      out.snapshots += index.snapshots.length
      for (const s of index.snapshots) sessions.add(s.sessionId)
      const newest = index.snapshots[0]?.createdAt
      if (newest && (out.lastSnapshotAt === null || newest > out.lastSnapshotAt)) out.lastSnapshotAt = newest
      for (const id of sessions) {
        const hooks = await reader.readSessionHooks(id)
        out.compactions += hooks.compactions
        out.narrativeBlocks += hooks.blocks
      }
      out.sessions += sessions.size
    } catch (e) {
      out.problems.push(e instanceof Error ? e.message : String(e))
    }
  }
  return out
}
