/**
 * Capture: read what the transcript gained since the last capture of this session, fold it into the
 * session's extraction state, and write a snapshot when something happened.
 */
import { stat } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import { applyEntry, createDelta, createState } from '../extract/extract.js'
import type { ExtractState } from '../extract/model.js'
import { STATE_VERSION, reviveState } from '../extract/model.js'
import { discoverTranscript } from '../host/claude.js'
import { type Snapshot, type Trigger, toSnapshot } from '../snapshot/model.js'
import { snapshotId, snapshotPath } from '../store/layout.js'
import { writeHomePointer } from '../narrative/pointer.js'
import { readGitInfo } from '../store/git.js'
import { findProjectRoot } from '../store/project.js'
import { addToRegistry } from '../store/registry.js'
import { CURSOR_VERSION, ProjectStore } from '../store/store.js'
import { type ReadStats, readTranscript } from '../transcript/read.js'
import { type Deps, isHomeScope } from './context.js'
import { isDirectory } from '../store/fs.js'

export interface CaptureRequest {
  cwd: string
  transcript?: string
  sessionId?: string
  trigger: Trigger
  /** From the Stop payload: the transcript may lag behind it. */
  lastAssistantMessage?: string
}

export interface CaptureResult {
  projectRoot: string
  sessionId: string
  transcript: string
  written: boolean
  /** Why nothing was written, or what was. */
  reason: string
  snapshot?: Snapshot
  snapshotFile?: string
  stats: ReadStats
  notes: string[]
  /** The session's extraction state after this capture. */
  state: ExtractState
}

export class CaptureError extends Error {}

function sessionIdFromPath(path: string): string {
  return basename(path).replace(/\.jsonl$/i, '')
}

export async function openProject(cwd: string, deps: Deps): Promise<ProjectStore> {
  const { root } = await findProjectRoot(cwd, deps.env.CLAUDE_PROJECT_DIR)
  return new ProjectStore(root, deps.indexCap)
}

export async function capture(req: CaptureRequest, deps: Deps): Promise<CaptureResult> {
  const notes: string[] = []
  const cwd = resolve(req.cwd)
  let transcript = req.transcript
  let sessionId = req.sessionId
  if (!transcript) {
    const found = await discoverTranscript(cwd, sessionId, deps.env)
    transcript = found.path
    sessionId = found.sessionId
    if (found.note) notes.push(found.note)
  }
  transcript = resolve(cwd, transcript)
  try {
    const s = await stat(transcript)
    if (!s.isFile()) throw new CaptureError(`transcript ${transcript} is not a file`)
  } catch (e) {
    if (e instanceof CaptureError) throw e
    throw new CaptureError(`transcript not found: ${transcript} (expected a Claude Code session .jsonl file)`)
  }
  const sid = sessionId && sessionId.trim() !== '' ? sessionId : sessionIdFromPath(transcript)

  // Never create a store for a folder that does not exist (a hostile or stale payload `cwd`).
  if (!(await isDirectory(cwd))) throw new CaptureError(`working directory ${cwd} does not exist (expected the session's folder)`)
  const store = await openProject(cwd, deps)
  if (isHomeScope(store.layout.root, deps.env)) {
    throw new CaptureError(`${store.layout.root} is not a project (it is your home folder or the file-system root): run in a project folder or pass --cwd`)
  }
  await store.ensure()
  const root = store.layout.root

  return store.withSessionLock(sid, async () => {
    const loaded = await store.loadCursor(sid)
    if (loaded.problem) notes.push(`cursor for session ${sid} was unreadable (${loaded.problem}); reading the transcript from the start`)
    let previous = loaded.file
    if (previous && (previous.transcript !== transcript || previous.state.version !== STATE_VERSION)) previous = undefined

    let state: ExtractState = previous ? reviveState(previous.state) : createState()
    let delta = createDelta()
    const ctx = { projectRoot: root }
    const stats = await readTranscript(
      transcript,
      previous?.cursor,
      (entry) => applyEntry(state, entry, ctx, delta),
      {
        onRestart: () => {
          notes.push('the transcript shrank or was rewritten since the last capture: read again from the start')
          state = createState()
          delta = createDelta()
        },
      },
    )
    state.sessionId = sid

    const happened = delta.touched.size > 0 || delta.prompts > 0 || delta.assistantTexts > 0
    const hookMessageIsNew = req.lastAssistantMessage !== undefined && req.lastAssistantMessage.trim() !== '' && req.lastAssistantMessage !== state.lastAssistant?.text && req.lastAssistantMessage !== previous?.lastHookMessage
    const force = req.trigger === 'manual' || req.trigger === 'demo' || req.trigger === 'mcp' || req.trigger === 'pre_compact'
    const result: CaptureResult = { projectRoot: root, sessionId: sid, transcript, written: false, reason: '', stats, notes, state }

    let lastSnapshot = previous?.lastSnapshot
    if (!happened && !hookMessageIsNew && !force) {
      result.reason = lastSnapshot ? 'no new activity since the last capture' : 'nothing to record yet: no request, reply or changed file in this session'
    } else {
      const now = deps.now()
      const id = snapshotId(now, deps.random4())
      const snapshot = toSnapshot(state, {
        id,
        createdAt: now.toISOString(),
        trigger: req.trigger,
        projectRoot: root,
        projectName: basename(root),
        sessionId: sid,
        capture: {
          transcript,
          bytesRead: stats.bytesRead,
          lines: stats.lines,
          skipped: stats.skipped,
          entries: stats.entries,
          restarted: stats.restarted,
          offset: stats.cursor.offset,
        },
        ...(req.lastAssistantMessage !== undefined ? { lastAssistantMessage: req.lastAssistantMessage } : {}),
      })
      const { pruned } = await store.saveSnapshot(snapshot, [...delta.touched])
      try {
        await addToRegistry(
          deps.bookmarkHome,
          { project: root, snapshotId: id, sessionId: sid, createdAt: snapshot.createdAt, task: snapshot.task ? snapshot.task.slice(0, 200) : null, ...(snapshot.session.branch ? { branch: snapshot.session.branch } : {}) },
          deps.registryCap,
          pruned,
        )
      } catch (e) {
        notes.push(`registry not updated: ${(e as Error).message}`)
        await store.logError(`${now.toISOString()} registry not updated: ${(e as Error).message}`).catch(() => undefined)
      }
      try {
        // The latest active project wins the home pointer.
        const git = await readGitInfo(root)
        await writeHomePointer(deps.bookmarkHome, { projectRoot: root, project: basename(root), sessionId: sid, task: snapshot.task, ...git }, now)
      } catch (e) {
        notes.push(`home pointer not updated: ${(e as Error).message}`)
        await store.logError(`${now.toISOString()} home pointer not updated: ${(e as Error).message}`).catch(() => undefined)
      }
      lastSnapshot = id
      result.written = true
      result.snapshot = snapshot
      result.snapshotFile = snapshotPath(store.layout, id)
      result.reason = `snapshot ${id} written`
    }

    await store.saveCursor({
      version: CURSOR_VERSION,
      sessionId: sid,
      transcript,
      cursor: stats.cursor,
      state,
      updatedAt: deps.now().toISOString(),
      bytesReadTotal: (stats.restarted ? 0 : (previous?.bytesReadTotal ?? 0)) + stats.bytesRead,
      captures: (previous?.captures ?? 0) + 1,
      ...(lastSnapshot ? { lastSnapshot } : {}),
      ...(hookMessageIsNew && req.lastAssistantMessage ? { lastHookMessage: req.lastAssistantMessage.slice(0, 4_000) } : previous?.lastHookMessage ? { lastHookMessage: previous.lastHookMessage } : {}),
    })
    return result
  })
}
