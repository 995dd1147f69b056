/**
 * Capture: read what the transcript gained since the last capture of this session, fold it into the
 * session's extraction state, and write a snapshot when something happened.
 *
 * Most calls find nothing new (a Stop right after a capture, a hook that fires twice): that is told from
 * the small cursor head and the transcript's stat (or, when the file was touched without growing, two
 * 64-byte reads of it), without loading the extraction code or the state (save.ts). The read itself costs what the transcript gained, never its whole size.
 */
import type { Stats } from 'node:fs'
import { type FileHandle, open, stat } from '../shared/fsp.js'
import { basename, resolve } from 'node:path'
import { isDirectory, sameStamp, stampOf } from '../store/fs.js'
import { findProjectRoot } from '../repo/root.js'
import { findProject } from '../repo/project.js'
import { type CursorHead, StoreReader } from '../store/reader.js'
import type { ProjectStore, StoreOptions } from '../store/store.js'
import { keptLength, sameBytes } from '../transcript/fingerprint.js'
import type { TranscriptCursor } from '../transcript/read.js'
import { type Deps, isHomeScope } from '../shared/deps.js'
import { CaptureError } from '../shared/errors.js'
import { claudeHost } from '../hosts/claude/host.js'
import { type CaptureRequest, type CaptureResult, FORCED } from './types.js'

export type { CaptureRequest, CaptureResult, CaptureTarget } from './types.js'
export { FORCED } from './types.js'

/** What a store needs of the deps: the home, the cap, how long to wait for a lock. */
export function storeOptions(deps: Pick<Deps, 'bookmarkHome' | 'indexCap' | 'lockDeadline'>): StoreOptions {
  return { bookmarkHome: deps.bookmarkHome, indexCap: deps.indexCap, ...(deps.lockDeadline !== undefined ? { lockDeadline: deps.lockDeadline } : {}) }
}

function sessionIdFromPath(path: string): string {
  return basename(path).replace(/\.jsonl$/i, '')
}

export async function openProject(cwd: string, deps: Deps): Promise<ProjectStore> {
  const [{ root }, { ProjectStore }] = await Promise.all([findProjectRoot(cwd, deps.env.CLAUDE_PROJECT_DIR), import('../store/store.js')])
  return new ProjectStore(root, storeOptions(deps))
}

export async function capture(req: CaptureRequest, deps: Deps): Promise<CaptureResult> {
  const notes: string[] = []
  const cwd = resolve(req.cwd)
  let transcript = req.transcript
  let sessionId = req.sessionId
  const host = req.host ?? claudeHost
  if (!transcript) {
    const found = await host.findTranscript(cwd, sessionId, deps.env)
    transcript = found.path
    sessionId = found.sessionId
    if (found.note) notes.push(found.note)
  }
  transcript = resolve(cwd, transcript)
  let file: Stats
  try {
    file = await stat(transcript)
    if (!file.isFile()) throw new CaptureError(`transcript ${transcript} is not a file`)
  } catch (e) {
    if (e instanceof CaptureError) throw e
    throw new CaptureError(`transcript not found: ${transcript} (expected a ${host.name} session .jsonl file)`)
  }
  const sid = sessionId && sessionId.trim() !== '' ? sessionId : sessionIdFromPath(transcript)

  // Never create a store for a folder that does not exist (a hostile or stale payload `cwd`).
  if (!(await isDirectory(cwd))) throw new CaptureError(`working directory ${cwd} does not exist (expected the session's folder)`)
  const project = req.project ?? (await findProject(cwd, deps.env))
  const root = project.root
  if (isHomeScope(root, deps.env)) {
    throw new CaptureError(`${root} is not a project (it is your home folder or the file-system root): run in a project folder or pass --cwd`)
  }

  const unchanged = await nothingNew(req, transcript, file, sid, new StoreReader(root, deps.bookmarkHome))
  if (unchanged) return unchanged
  // Only a capture that reads something loads the writers and the extraction code.
  const [{ saveCapture }, { ProjectStore }] = await Promise.all([import('./save.js'), import('../store/store.js')])
  return saveCapture({ req, host, transcript, sid, project, store: new ProjectStore(root, storeOptions(deps)), notes }, deps)
}

/**
 * Whether a Stop payload's last message may be unrecorded: false when it equals, as it is, what the head
 * recorded (the transcript's last reply or an earlier Stop's message, both kept redacted and cut). A long
 * reply or one holding a secret never equals its stored form: the capture then compares it as stored
 * (save.ts), which needs the redactor this check does without.
 */
function hookMessageMayBeNew(message: string | undefined, head: Pick<CursorHead, 'lastAssistantText' | 'lastHookMessage'> | undefined): boolean {
  return message !== undefined && message.trim() !== '' && message !== head?.lastAssistantText && message !== head?.lastHookMessage
}

/**
 * The result of a capture that has nothing to read and nothing to write, or undefined when the capture
 * must run: forced, a new session, a cursor that does not fit the file, new bytes, or a new Stop message.
 */
async function nothingNew(req: CaptureRequest, transcript: string, file: Stats, sid: string, store: StoreReader): Promise<CaptureResult | undefined> {
  if (FORCED.has(req.trigger)) return undefined
  const loaded = await store.loadCursor(sid).catch(() => ({}) as { head?: CursorHead })
  const head = loaded.head
  if (!head || head.transcript !== transcript) return undefined
  if (hookMessageMayBeNew(req.lastAssistantMessage, head)) return undefined
  // The file as the last capture left it at its end (its stamp) needs no read; else its bytes are compared.
  const untouched = head.cursor.offset === file.size && sameStamp(head.transcriptStamp, stampOf(file))
  if (!untouched && !(await cursorAtEnd(transcript, head.cursor))) return undefined
  return {
    projectRoot: store.layout.root,
    sessionId: sid,
    transcript,
    written: false,
    reason: head.lastSnapshot ? 'no new activity since the last capture' : 'nothing to record yet: no request, reply or changed file in this session',
    stats: { cursor: head.cursor, bytesRead: 0, lines: 0, skipped: 0, oversized: 0, restarted: false, partialTail: false, entries: 0 },
    notes: [],
    work: head.work,
  }
}

/** The cursor stands at the end of the file, and the file's first bytes and the bytes before the cursor are the ones it saw. */
export async function cursorAtEnd(path: string, cursor: TranscriptCursor): Promise<boolean> {
  let fh: FileHandle | undefined
  try {
    fh = await open(path, 'r')
    const { size } = await fh.stat()
    if (size !== cursor.offset || cursor.head === '' || cursor.tail === undefined) return false
    // The cursor keeps fingerprints of these bytes: as many are read as they describe (readTranscript's own check).
    const headLength = keptLength(cursor.head)
    const tailLength = keptLength(cursor.tail)
    if (headLength < 1 || tailLength < 1 || headLength > size || tailLength > size) return false
    const head = Buffer.alloc(headLength)
    const tail = Buffer.alloc(tailLength)
    await fh.read(head, 0, head.length, 0)
    await fh.read(tail, 0, tail.length, size - tail.length)
    return sameBytes(cursor.head, head) && sameBytes(cursor.tail, tail)
  } catch {
    return false
  } finally {
    await fh?.close().catch(() => undefined)
  }
}
