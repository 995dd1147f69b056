/**
 * `bookmark wrapup` and the MCP tool bookmark_wrapup: the digest of the session to ground a wrap-up on, and the
 * recording of one: a sealed file in the project's `.bookmark/wrapups/` and a `wrapup` event in the events log,
 * indexed at once so that the next search finds it.
 */
import { resolve } from 'node:path'
import { openProject } from '../capture/capture.js'
import { snapshotRefusal } from '../commands/switch.js'
import { type Deps, configured, isHomeScope } from '../shared/deps.js'
import { InputError } from '../shared/errors.js'
import { removeFile } from '../shared/fsp.js'
import type { Snapshot } from '../snapshot/model.js'
import type { ProjectStore } from '../store/store.js'
import { latestWrapup, saveWrapup } from '../store/wrapups.js'
import { catchUpIndex } from './indexer.js'
import { appendEvents, ensureMemory, readLogState, withMemoryLock } from './log.js'
import { type Digest, type Wrapup, type WrapupInput, digestOf, makeWrapup, wrapupEvent, wrapupId } from './wrapup.js'

async function projectStore(cwd: string, deps: Deps): Promise<ProjectStore> {
  const store = await openProject(resolve(cwd), deps)
  if (isHomeScope(store.layout.root, deps.env))
    throw new InputError(`${store.layout.root} is not a project (no repository or project folder here): run the wrap-up inside the project`)
  return store
}

/** The newest snapshot of `sessionId` (else of the project). */
async function snapshotOf(store: ProjectStore, sessionId?: string): Promise<Snapshot | undefined> {
  const { index } = await store.readIndex()
  const entry = sessionId !== undefined ? index.snapshots.find((e) => e.sessionId === sessionId) : index.snapshots[0]
  return entry ? store.readSnapshot(entry.id) : undefined
}

export interface DigestResult {
  projectRoot: string
  digest?: Digest
  /** The newest wrap-up already recorded for the project (its summary), so the agent does not repeat it. */
  previous?: { id: string; createdAt: string; summary: string }
}

export async function wrapupDigest(cwd: string, sessionId: string | undefined, deps: Deps): Promise<DigestResult> {
  const store = await projectStore(cwd, deps)
  const snap = await snapshotOf(store, sessionId)
  const prev = await latestWrapup(store)
  return {
    projectRoot: store.layout.root,
    ...(snap ? { digest: digestOf(snap) } : {}),
    ...(prev ? { previous: { id: prev.wrapup.id, createdAt: prev.wrapup.createdAt, summary: prev.wrapup.summary } } : {}),
  }
}

export function digestNone(r: DigestResult, sessionId?: string): string {
  return `No snapshot of ${sessionId ? `session ${sessionId}` : 'this project'} in ${r.projectRoot} yet (\`bookmark snapshot\` captures the session): write the wrap-up from the conversation.`
}

export interface WrapupResult {
  wrapup: Wrapup
  file: string
  eventId: string
  /** False when the events log could not take the event (the note says why); the file is written all the same. */
  indexed: boolean
  note?: string
}

export async function recordWrapup(input: WrapupInput, cwd: string, deps: Deps): Promise<WrapupResult> {
  const { resolved } = await configured(deps, resolve(cwd))
  const refused = snapshotRefusal(resolved, input.sessionId, '`bookmark on` switches it back on')
  if (refused) throw new InputError(`No wrap-up recorded: ${refused}.`)
  const store = await projectStore(cwd, deps)
  const snap = await snapshotOf(store, input.sessionId)
  const now = deps.now()
  const wrapup = makeWrapup(input, {
    id: wrapupId(now, deps.random4()),
    createdAt: now.toISOString(),
    project: store.layout.root,
    ...(snap ? { session: snap.session.id, ...(snap.session.host ? { host: snap.session.host } : {}) } : {}),
  })
  const file = await saveWrapup(store, wrapup)
  // The next startup restore shows it: the answer prepared before it is no longer right.
  const state = await store.state()
  if (state) await removeFile(state.prepared).catch(() => undefined)
  const event = wrapupEvent(wrapup, file)
  try {
    const m = await ensureMemory(deps.bookmarkHome)
    await withMemoryLock(m, async () => {
      await appendEvents(m, await readLogState(m), [event], {})
      await catchUpIndex(m)
    })
    return { wrapup, file, eventId: event.id, indexed: true }
  } catch (e) {
    const note = `the wrap-up is saved in ${file} but could not be added to the search index: ${(e as Error).message}`
    deps.log(note)
    return { wrapup, file, eventId: event.id, indexed: false, note }
  }
}
