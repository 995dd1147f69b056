/**
 * Forgetting snapshots (`bookmark forget`): removes them and everything derived from them, under the
 * project lock, so that none of it reappears in LATEST.md, the trail, restore, show or list. The store's
 * half: the project's `.bookmark/` and its folder in the bookmark home. The registry and the home
 * pointer are the caller's (src/commands/forget.ts): they live under their own lock.
 */
import { basename, join } from 'node:path'
import { lstatOrNone, ownUid, readdir, removeFile } from '../shared/fsp.js'
import { dict } from '../shared/json.js'
import type { Snapshot } from '../snapshot/model.js'
import type { TrailEntry, Trails } from '../snapshot/render.js'
import { type StateLayout, compactResumePath, cursorPath, cursorStatePath, sessionHooksPath, snapshotPath } from './layout.js'
import { readJson } from './read.js'
import { INDEX_VERSION, type Index, type IndexEntry, type ProjectStore, TRAILS_VERSION, isTrails, newestFirst, trailEntry } from './store.js'
import type { Seal } from '../trust/mac.js'

export interface ForgetRequest {
  /** Picks what to forget among every snapshot of the project (the index's and this user's files on disk). */
  select: (all: IndexEntry[]) => Set<string>
  /** Sessions whose capture starts over: cursor head, state and hook files removed. */
  resetSessions: string[]
  /** Every file of cursors/ and sessions/ removed (--all): also sessions that never wrote a snapshot. */
  resetAll: boolean
  /** Also remove the narrative handoff (only --all offers it). */
  removeHandoff: boolean
}

export interface ForgetOutcome {
  /** The snapshots removed, newest first. */
  forgotten: IndexEntry[]
  /** The newest snapshot left, which LATEST.md now shows; undefined when none is left. */
  latest: Snapshot | undefined
  remaining: IndexEntry[]
  handoffRemoved: boolean
}

/** Every snapshot of the project: the index's entries and those of this user's sealed files on disk, newest first. */
async function everySnapshot(store: ProjectStore): Promise<{ index: Index; all: IndexEntry[] }> {
  const read = await store.readIndex()
  const onDisk = await store.rebuildIndex()
  const byId = new Map<string, IndexEntry>()
  for (const e of [...onDisk.snapshots, ...read.index.snapshots]) byId.set(e.id, e)
  const usable = read.problem === undefined && read.untrusted === undefined && read.index.snapshots.length > 0
  return { index: usable ? read.index : onDisk, all: [...byId.values()].sort(newestFirst) }
}

/** What `forget` would pick now (read without the lock: to check the input and to ask for confirmation). */
export async function candidates(store: ProjectStore): Promise<IndexEntry[]> {
  return (await everySnapshot(store)).all
}

export async function forgetSnapshots(store: ProjectStore, req: ForgetRequest): Promise<ForgetOutcome> {
  const [{ writeJson, writeText }, { renderLatest }] = await Promise.all([import('./files.js'), import('../snapshot/render.js')])
  return store.withProjectLock(async ({ state, seal }) => {
    const l = store.layout
    // Chosen again under the lock: a capture may have written one since the caller looked.
    const { index, all } = await everySnapshot(store)
    const ids = req.select(all)
    const forgotten = all.filter((e) => ids.has(e.id))
    // The index first: from then on nothing lists what is being removed, even if a removal below fails.
    const remaining = index.snapshots.filter((e) => !ids.has(e.id))
    await writeJson(l.index, { version: INDEX_VERSION, snapshots: remaining } satisfies Index, { redacted: true, seal })
    for (const e of forgotten) await removeFile(snapshotPath(l, e.id))
    let latest: Snapshot | undefined
    for (const e of remaining) if ((latest = await store.readSnapshot(e.id))) break
    if (latest) await writeText(l.latest, renderLatest(latest), { redacted: true })
    else await removeFile(l.latest)
    await forgetTrails(store, ids, remaining, latest?.project.name, seal)
    await forgetState(state, forgotten, req)
    let handoffRemoved = false
    if (req.removeHandoff) {
      // Only a regular file of this user's: a link or someone else's file is not ours to remove.
      const s = await lstatOrNone(l.narrative)
      if (s?.isFile() && s.uid === (ownUid() ?? s.uid)) {
        await removeFile(l.narrative)
        handoffRemoved = true
      }
    }
    return { forgotten, latest, remaining, handoffRemoved }
  })
}

/**
 * The trail without the entries of the forgotten snapshots; a file with no entry left leaves it. A trail line
 * names the capture of its session that last touched the file, but every snapshot holds its whole session so
 * far: when a later snapshot of that session is left and lists the file, the line is made again from it.
 */
async function forgetTrails(store: ProjectStore, ids: Set<string>, remaining: IndexEntry[], projectName: string | undefined, seal: Seal): Promise<void> {
  const l = store.layout
  const r = await readJson(l.trailsJson, isTrails, seal)
  // A trail that is not this user's (it came with the project) was never read: nothing of ours is in it.
  if (!r.ok) return
  const newestOf = new Map<string, Promise<Snapshot | undefined>>()
  const newest = (session: string): Promise<Snapshot | undefined> => {
    let p = newestOf.get(session)
    if (!p) {
      const e = remaining.find((x) => x.sessionId === session) // remaining is newest first
      newestOf.set(session, (p = e ? store.readSnapshot(e.id) : Promise.resolve(undefined)))
    }
    return p
  }
  const files: Trails['files'] = {}
  for (const [path, entries] of Object.entries(dict(r.value.files))) {
    const kept: TrailEntry[] = []
    for (const e of entries) {
      if (!ids.has(e.snapshot)) kept.push(e)
      else {
        const later = await newest(e.session)
        const f = later?.files.find((x) => x.path === path)
        if (later && f) kept.push(trailEntry(later, f)) // from a stored snapshot: redacted already
      }
    }
    if (kept.length > 0) files[path] = kept
  }
  if (Object.keys(files).length === 0) {
    await removeFile(l.trailsJson)
    await removeFile(l.trailsMd)
    return
  }
  const [{ writeJson, writeText }, { renderTrails }, { redact }] = await Promise.all([
    import('./files.js'),
    import('../snapshot/render.js'),
    import('../redact/secrets.js'),
  ])
  const trails: Trails = { version: TRAILS_VERSION, files }
  // Entries as stored (redacted when written); the name is redacted here, as a capture's snapshot has it.
  await writeJson(l.trailsJson, trails, { redacted: true, compact: true, seal })
  await writeText(l.trailsMd, renderTrails(projectName ?? redact(basename(l.root)), trails), { redacted: true })
}

/**
 * The answers kept for the next hook (the prepared restore, the handoff's verdict and its kept body) quote the
 * latest snapshot or the handoff: removed, the next hook computes them again. A compact resume quotes its session: removed for
 * every session that lost a snapshot. A reset session also loses its cursor, state and hook record; forgetting all
 * also removes the project's figures.
 */
async function forgetState(state: StateLayout, forgotten: IndexEntry[], req: ForgetRequest): Promise<void> {
  await removeFile(state.prepared)
  await removeFile(state.narrativeState)
  await removeFile(state.narrativeBody) // the handoff's body, redacted, as the prepared restore quoted it
  const sessions = new Set([...forgotten.map((e) => e.sessionId), ...req.resetSessions])
  for (const sid of sessions) await removeFile(compactResumePath(state, sid))
  for (const sid of req.resetSessions) {
    for (const path of [cursorPath(state, sid), cursorStatePath(state, sid), sessionHooksPath(state, sid)]) await removeFile(path)
  }
  if (!req.resetAll) return
  await removeFile(state.stats) // the figures of what is forgotten (restores given, handoffs written)
  for (const dir of [state.cursors, state.sessions]) {
    const names = await readdir(dir).catch(() => [] as string[])
    // Lock files stay: a capture may hold one (and forget holds those of the sessions it knows).
    for (const name of names) if (!name.endsWith('.lock')) await removeFile(join(dir, name))
  }
}
