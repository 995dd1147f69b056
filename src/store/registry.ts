/**
 * The cross-project registry in the bookmark home (~/.bookmark/registry.json): one entry per snapshot,
 * keyed by project path and snapshot id, newest first, capped. Updated under its own lock.
 */
import { fileURLToPath } from 'node:url'
import { isObject } from '../shared/json.js'
import { homeLayout } from './layout.js'
import { readJson } from './read.js'
import { compareText } from '../shared/text.js'

export const REGISTRY_VERSION = 1

/** The hook bundles whose code caches the bookmark home keeps (dist/cli/ in the built CLI, from src/store/ in a checkout). */
const BUNDLES = new URL('../../dist/cli', import.meta.url)
export const DEFAULT_REGISTRY_CAP = 500

export interface RegistryEntry {
  /** The project's root as stored: redacted (a folder can be named like a token). */
  project: string
  /** The registry's own order of entries (newest highest): never the clock's, which can run ahead. */
  seq?: number
  snapshotId: string
  sessionId: string
  createdAt: string
  task: string | null
  branch?: string
}

export interface Registry {
  version: number
  entries: RegistryEntry[]
}

function isRegistry(v: unknown): v is Registry {
  return isObject(v) && typeof v.version === 'number' && Array.isArray(v.entries)
}

function validEntry(e: unknown): e is RegistryEntry {
  return isObject(e) && typeof e.project === 'string' && typeof e.snapshotId === 'string' && typeof e.createdAt === 'string'
}

export async function readRegistry(bookmarkHome: string): Promise<{ registry: Registry; problem?: string }> {
  const r = await readJson(homeLayout(bookmarkHome).registry, isRegistry)
  if (r.ok) return { registry: { version: r.value.version, entries: r.value.entries.filter(validEntry) } }
  return { registry: { version: REGISTRY_VERSION, entries: [] }, ...(r.missing ? {} : { problem: r.reason }) }
}

/** An entry as the registry file holds it: redacted (a folder can be named after a token). */
async function asStored<T extends Pick<RegistryEntry, 'project'>>(entry: T): Promise<T> {
  const { redactDeep } = await import('../redact/secrets.js')
  return redactDeep(entry)
}

/** The registry's entries of the project at `root`, matched as stored (redacted). */
export async function entriesOf(registry: Registry, root: string): Promise<RegistryEntry[]> {
  const { project } = await asStored({ project: root })
  return registry.entries.filter((e) => e.project === project)
}

/**
 * Adds a snapshot and drops the snapshots of the same project that its index pruned (their files are gone).
 * `tidy` (default true) also removes old temp files of killed writes from the bookmark home.
 */
export async function addToRegistry(
  bookmarkHome: string,
  entry: RegistryEntry,
  cap = DEFAULT_REGISTRY_CAP,
  pruned: string[] = [],
  tidy = true,
  lockDeadline?: number,
): Promise<void> {
  const home = homeLayout(bookmarkHome)
  // Loaded here: reading the registry (restore, list) needs none of the writers.
  const [{ ensureDir, writeJson }, { untilDeadline, withLock }, { sweepStaleCaches, sweepTemps }] = await Promise.all([
    import('./files.js'),
    import('./lock.js'),
    import('./sweep.js'),
  ])
  await ensureDir(home.dir)
  if (tidy) {
    await sweepTemps(home.dir)
    await sweepTemps(home.cache) // a hook killed while it wrote its code cache at exit
    await sweepStaleCaches(home.cache, fileURLToPath(BUNDLES))
  }
  await withLock(
    home.lock,
    async () => {
      const { registry } = await readRegistry(bookmarkHome)
      // Up to 500 entries, redacted when the file was written: only the new one is redacted (files.ts, `redacted`).
      // Old entries are matched by the project as stored: a path that holds a secret is stored redacted, and its
      // pruned snapshots must still leave the registry.
      const seq = registry.entries.reduce((max, e) => Math.max(max, typeof e.seq === 'number' ? e.seq : 0), 0) + 1
      const stored = { ...(await asStored(entry)), seq }
      const gone = new Set(pruned)
      const rest = registry.entries.filter((e) => !(e.project === stored.project && (e.snapshotId === entry.snapshotId || gone.has(e.snapshotId))))
      // Newest first by the registry's sequence, so the cap drops what was registered first, whatever its date says.
      const entries = [stored, ...rest]
        .sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0) || compareText(b.createdAt, a.createdAt) || compareText(b.snapshotId, a.snapshotId))
        .slice(0, cap)
      await writeJson(home.registry, { version: REGISTRY_VERSION, entries } satisfies Registry, { redacted: true })
    },
    untilDeadline(lockDeadline, 250),
  ) // a hook's deadline (a moment past it for this short write): the capture stands without its entry
}

/** Removes the registry's entries of these snapshots of the project at `root` (`bookmark forget`); how many went. */
export async function forgetInRegistry(bookmarkHome: string, root: string, snapshotIds: ReadonlySet<string>): Promise<number> {
  const home = homeLayout(bookmarkHome)
  const [{ writeJson }, { withLock }] = await Promise.all([import('./files.js'), import('./lock.js')])
  const { registry, problem } = await readRegistry(bookmarkHome)
  // Nothing to remove from a registry that is not there; a broken one is doctor's to report, not ours to rewrite.
  if (problem !== undefined || registry.entries.length === 0) return 0
  return withLock(home.lock, async () => {
    const { registry } = await readRegistry(bookmarkHome)
    const { project } = await asStored({ project: root })
    const entries = registry.entries.filter((e) => !(e.project === project && snapshotIds.has(e.snapshotId)))
    const removed = registry.entries.length - entries.length
    if (removed > 0) await writeJson(home.registry, { version: registry.version, entries } satisfies Registry, { redacted: true })
    return removed
  })
}
