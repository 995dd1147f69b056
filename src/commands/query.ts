/**
 * Read-only operations over the store: status, list, show. Shared by the CLI and (later) MCP.
 */
import { readdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Snapshot } from '../snapshot/model.js'
import { isSnapshotId } from '../store/layout.js'
import { type RegistryEntry, entriesOf, readRegistry } from '../store/registry.js'
import type { IndexEntry } from '../store/store.js'
import { openProject } from '../capture/capture.js'
import { type Deps, isHomeScope } from '../shared/deps.js'
import { InputError } from '../shared/errors.js'
import { resolveConfig } from '../config/resolve.js'
import { type SwitchState, switchState } from '../config/switch.js'
import { type Restores, emptyFigures, readStats, restoresOf } from '../store/stats.js'

export interface Status {
  projectRoot: string
  storeDir: string
  /** The project's machine-local folder in the bookmark home (cursors, hook state, locks); null before its first capture. */
  stateDir: string | null
  snapshots: number
  sessions: number
  latest: IndexEntry | null
  registryEntries: number
  bookmarkHome: string
  /** Stop blocks that asked the model for the narrative, over all sessions: what the narrative costs. */
  narrativeBlocks: number
  compactions: number
  /** Handoffs the hooks found newly written, and how many came after a narrative block (store/stats.ts). */
  handoffsWritten: number
  handoffsAnswered: number
  /** Restores given and their sizes in characters. */
  restores: Restores
  /** Whether the hooks capture here (`bookmark off` / `on`), and which sessions are switched off. */
  capture: SwitchState
  problems: string[]
}

export async function status(cwd: string, deps: Deps): Promise<Status> {
  const store = await openProject(resolve(cwd), deps)
  const { index, problem, untrusted } = await store.readIndex()
  const problems = problem ? [`index.json unreadable: ${problem}`] : []
  if (untrusted) problems.push(`index.json ignored: not written by this user's bookmark (\`bookmark doctor\` tells more)`)
  const state = await store.state()
  let sessions = 0
  try {
    sessions = state ? (await readdir(state.cursors)).filter((n) => n.endsWith('.json') && !n.endsWith('.state.json')).length : 0
  } catch {
    sessions = 0
  }
  const hooks = await store.allSessionHooks()
  const figures = state ? await readStats(state.stats) : emptyFigures()
  const reg = await readRegistry(deps.bookmarkHome)
  const root = store.layout.root
  const cfg = await resolveConfig({ bookmarkHome: deps.bookmarkHome, ...(isHomeScope(root, deps.env) ? {} : { projectRoot: root }), env: deps.env })
  if (reg.problem) problems.push(`registry unreadable: ${reg.problem}`)
  return {
    projectRoot: store.layout.root,
    storeDir: store.layout.dir,
    stateDir: state?.dir ?? null,
    snapshots: index.snapshots.length,
    sessions,
    latest: index.snapshots[0] ?? null,
    registryEntries: (await entriesOf(reg.registry, store.layout.root)).length,
    bookmarkHome: deps.bookmarkHome,
    narrativeBlocks: hooks.reduce((n, h) => n + h.blocks, 0),
    compactions: hooks.reduce((n, h) => n + h.compactions, 0),
    handoffsWritten: figures.handoffsWritten,
    handoffsAnswered: figures.handoffsAnswered,
    restores: restoresOf(figures),
    capture: switchState(cfg),
    problems,
  }
}

export async function listProject(cwd: string, limit: number, deps: Deps): Promise<{ projectRoot: string; entries: IndexEntry[]; total: number }> {
  const store = await openProject(resolve(cwd), deps)
  const { index } = await store.readIndex()
  return { projectRoot: store.layout.root, entries: index.snapshots.slice(0, limit), total: index.snapshots.length }
}

export async function listAll(limit: number, deps: Deps): Promise<{ entries: RegistryEntry[]; total: number }> {
  const { registry } = await readRegistry(deps.bookmarkHome)
  return { entries: registry.entries.slice(0, limit), total: registry.entries.length }
}

export async function show(cwd: string, id: string | undefined, deps: Deps): Promise<Snapshot> {
  const store = await openProject(resolve(cwd), deps)
  let wanted = id
  if (wanted !== undefined && !isSnapshotId(wanted)) {
    throw new InputError(`not a snapshot id: "${wanted}" (expected the form SNAP_yyyymmdd_hhmmss_mmm_hhhh, as printed by \`bookmark list\`)`)
  }
  if (wanted === undefined) {
    const { index } = await store.readIndex()
    wanted = index.snapshots[0]?.id
    if (!wanted) throw new InputError(`no snapshots yet in ${store.layout.dir} (run \`bookmark snapshot\` first)`)
  }
  const snap = await store.readSnapshot(wanted)
  if (!snap) throw new InputError(`snapshot ${wanted} does not exist in ${store.layout.snapshots} (see \`bookmark list\`)`)
  return snap
}
