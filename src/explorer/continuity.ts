/**
 * Continuity figures of a project from its store (`.bookmark/`, read through StoreReader, which checks the seals)
 * and its folder in the bookmark home: snapshots, compactions survived, narrative blocks asked for, handoffs
 * written, restores given and their sizes (store/stats.ts: numbers only). The registry in the bookmark home says
 * which stores and sessions belong to a project folder.
 */
import { StoreReader } from '../store/reader.js'
import { readRegistry } from '../store/registry.js'
import { stateOf } from '../store/state.js'
import { type Restores, type StatFigures, emptyFigures, readStats, restoresOf } from '../store/stats.js'
import { sameProject } from './handoff.js'

export interface Continuity {
  /** Stores found for the project (its folder, or a folder inside it, captured by this bookmark home). */
  stores: number
  snapshots: number
  /** Sessions the stores know (captured at least once). */
  sessions: number
  compactions: number
  narrativeBlocks: number
  /** Handoffs the hooks found newly written, and how many came after a narrative block. */
  handoffsWritten: number
  handoffsAnswered: number
  lastHandoffAt: string | null
  lastSnapshotAt: string | null
  restores: Restores
  /** Why a store was not read (not sealed by this user's key, unreadable). */
  problems: string[]
}

/** Figures of several stores as one. */
export function addFigures(a: StatFigures, b: StatFigures): StatFigures {
  const last = !a.lastRestore ? b.lastRestore : !b.lastRestore ? a.lastRestore : b.lastRestore.at > a.lastRestore.at ? b.lastRestore : a.lastRestore
  const lastHandoffAt = a.lastHandoffAt === null ? b.lastHandoffAt : b.lastHandoffAt === null ? a.lastHandoffAt : Math.max(a.lastHandoffAt, b.lastHandoffAt)
  return {
    restores: a.restores + b.restores,
    restoreChars: a.restoreChars + b.restoreChars,
    largestRestore: Math.max(a.largestRestore, b.largestRestore),
    lastRestore: last,
    handoffsWritten: a.handoffsWritten + b.handoffsWritten,
    handoffsAnswered: a.handoffsAnswered + b.handoffsAnswered,
    lastHandoffAt,
    ignored: a.ignored + b.ignored,
  }
}

export async function continuityOf(bookmarkHome: string, project: string): Promise<Continuity> {
  const out: Continuity = {
    stores: 0,
    snapshots: 0,
    sessions: 0,
    compactions: 0,
    narrativeBlocks: 0,
    handoffsWritten: 0,
    handoffsAnswered: 0,
    lastHandoffAt: null,
    lastSnapshotAt: null,
    restores: restoresOf(emptyFigures()),
    problems: [],
  }
  let figures = emptyFigures()
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
      const state = await stateOf(bookmarkHome, root)
      if (state) figures = addFigures(figures, await readStats(state.stats))
    } catch (e) {
      out.problems.push(e instanceof Error ? e.message : String(e))
    }
  }
  out.handoffsWritten = figures.handoffsWritten
  out.handoffsAnswered = figures.handoffsAnswered
  out.lastHandoffAt = figures.lastHandoffAt === null ? null : new Date(figures.lastHandoffAt).toISOString()
  out.restores = restoresOf(figures)
  return out
}
