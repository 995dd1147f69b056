/**
 * The per-transcript side of the events log (log.ts):
 *
 *   <home>/memory/sources/<key>.json   one checkpoint per transcript ({path, ...checkpoint}): a capture reads and
 *                                      writes only its own
 *   <home>/memory/seen.json            the catch-up's list of the transcripts it knows, with the size and mtime it
 *                                      last found each at (a cache: a stale entry costs one checkpoint read)
 *   <home>/memory/pending/<key>.json   hints: a capture that could not append (a busy lock, a checkpoint that does
 *                                      not line up with its read) names its transcript for the next catch-up
 *
 * `<key>` is a hash of the transcript's path. Checkpoint files and seen.json are written under the memory lock,
 * hints without it (each is one atomic write of a file no one else writes but a capture of the same transcript).
 */
import { join } from 'node:path'
import { crypto } from '../shared/builtin.js'
import { readdir, readRegularFile, removeFile } from '../shared/fsp.js'
import { ensureDir, writeJson } from '../store/files.js'
import type { HostId } from '../hosts/host.js'
import type { Checkpoint, LogState, MemoryLayout } from './log.js'
import type { TranscriptSource } from './sources.js'

/** The file name of a transcript's checkpoint and hint. */
export function sourceKey(path: string): string {
  return crypto().createHash('sha256').update(path).digest('hex').slice(0, 32)
}

const checkpointPath = (m: MemoryLayout, path: string): string => join(m.sources, `${sourceKey(path)}.json`)

function isCheckpoint(v: unknown): v is Checkpoint & { path: string } {
  const c = v as Partial<Checkpoint & { path: string }> | null
  return (
    c !== null &&
    typeof c === 'object' &&
    typeof c.path === 'string' &&
    typeof c.offset === 'number' &&
    typeof c.lines === 'number' &&
    typeof c.head === 'string' &&
    typeof c.carry === 'object' &&
    c.carry !== null
  )
}

async function readJsonFile(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readRegularFile(path)) as unknown
  } catch {
    return undefined // absent, or damaged: as if absent (the transcript is read again from an older point)
  }
}

/** The checkpoint file of `path`, as written; undefined when there is none (or it is damaged). */
export async function readCheckpointFile(m: MemoryLayout, path: string): Promise<Checkpoint | undefined> {
  const v = await readJsonFile(checkpointPath(m, path))
  if (!isCheckpoint(v) || v.path !== path) return undefined
  const { path: _path, ...cp } = v
  return cp
}

/** Writes the checkpoint file of `path` (its carry is redacted: events.ts). Call under the memory lock. */
export async function writeCheckpointFile(m: MemoryLayout, path: string, cp: Checkpoint): Promise<void> {
  const file = checkpointPath(m, path)
  const value = { path, ...cp }
  try {
    await writeJson(file, value, { redacted: true, compact: true })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    await ensureDir(m.sources)
    await writeJson(file, value, { redacted: true, compact: true })
  }
}

/**
 * The checkpoint of `path` as the log commits it: the last commit's copy in log.json when its writer may have
 * died before the file (the higher commit number wins), a first-version log.json's, else the file. `state` is
 * log.json as read just before.
 */
export async function readCheckpoint(m: MemoryLayout, state: LogState, path: string): Promise<Checkpoint | undefined> {
  if (state.legacy) return state.legacy[path]
  let file = await readCheckpointFile(m, path)
  // Newer than the commit point read before it (a commit since, or a log.json lost and started again): not
  // trusted to match the log, so the transcript is read again (a commit from it is then checked under the lock).
  if (file && (file.commit ?? 0) > state.commit) file = undefined
  const last = state.last?.[path]
  if (!last) return file
  if (!file) return last
  return (file.commit ?? 0) > (last.commit ?? 0) ? file : last
}

/** The same checkpoint, written by the same commit (`forget` rewrites one in place): a commit from it is in order. */
export const sameStart = (a: Checkpoint | undefined, b: Checkpoint | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.offset === b.offset && a.head === b.head && a.lines === b.lines && (a.commit ?? 0) === (b.commit ?? 0))

/** Every checkpoint (index --status, forget): the files, with log.json's newer copies over them. */
export async function listCheckpoints(m: MemoryLayout, state: LogState): Promise<Record<string, Checkpoint>> {
  const out: Record<string, Checkpoint> = {}
  for (const name of await readdir(m.sources).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue
    const v = await readJsonFile(join(m.sources, name))
    if (!isCheckpoint(v) || `${sourceKey(v.path)}.json` !== name) continue
    const { path, ...cp } = v
    out[path] = cp
  }
  for (const [path, cp] of Object.entries(state.last ?? {})) if ((out[path]?.commit ?? 0) <= (cp.commit ?? 0)) out[path] = cp
  return { ...out, ...state.legacy }
}

export interface SeenEntry {
  host: HostId
  session: string
  size: number
  mtime: number
}

export interface Seen {
  version: 1
  /** A backfill ran: a catch-up looks for new transcripts in the host stores too. */
  backfilled?: true
  /** The log's commit number when it was written: a log.json behind it (lost, started again) makes its stamps void. */
  commit?: number
  sources: Record<string, SeenEntry>
}

export const seenOf = (cp: Checkpoint): SeenEntry => ({ host: cp.host, session: cp.session, size: cp.size, mtime: cp.mtime })

/**
 * seen.json; a first-version log.json's checkpoints count as seen (and as a backfill: only a backfill made them).
 * With `state` (log.json as read), stamps newer than the log are void: those transcripts are looked at again.
 */
export async function readSeen(m: MemoryLayout, state?: LogState): Promise<Seen> {
  const v = (await readJsonFile(m.seen)) as Partial<Seen> | undefined
  const seen: Seen = { version: 1, sources: v && v.version === 1 && typeof v.sources === 'object' && v.sources !== null ? v.sources : {} }
  if (v?.backfilled === true) seen.backfilled = true
  if (typeof v?.commit === 'number') seen.commit = v.commit
  if (state && (seen.commit ?? 0) > state.commit) for (const e of Object.values(seen.sources)) e.size = -1
  if (state?.legacy && Object.keys(state.legacy).length > 0) {
    seen.backfilled = true
    for (const [path, cp] of Object.entries(state.legacy)) seen.sources[path] ??= seenOf(cp)
  }
  return seen
}

/** Adds entries to seen.json (and the backfill mark), as of the log's commit `commit`. Call under the memory lock. */
export async function mergeSeen(m: MemoryLayout, add: Record<string, SeenEntry>, commit: number, backfilled = false): Promise<void> {
  if (Object.keys(add).length === 0 && !backfilled) return
  const seen = await readSeen(m)
  Object.assign(seen.sources, add)
  seen.commit = Math.max(seen.commit ?? 0, commit)
  if (backfilled) seen.backfilled = true
  await writeJson(m.seen, seen, { redacted: true, compact: true })
}

/** Names a transcript for the next catch-up (a capture that could not append its events). */
export async function writeHint(m: MemoryLayout, source: TranscriptSource): Promise<void> {
  const file = join(m.pending, `${sourceKey(source.path)}.json`)
  try {
    await writeJson(file, source, { redacted: true, compact: true })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    await ensureDir(m.pending)
    await writeJson(file, source, { redacted: true, compact: true })
  }
}

export async function readHints(m: MemoryLayout): Promise<{ name: string; source: TranscriptSource }[]> {
  const out: { name: string; source: TranscriptSource }[] = []
  for (const name of await readdir(m.pending).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue
    const v = (await readJsonFile(join(m.pending, name))) as Partial<TranscriptSource> | undefined
    if (v && typeof v.path === 'string' && (v.host === 'claude' || v.host === 'codex') && typeof v.session === 'string')
      out.push({ name, source: { path: v.path, host: v.host, session: v.session } })
    else await removeFile(join(m.pending, name)).catch(() => undefined) // a temp file of a killed writer, or junk
  }
  return out
}

export async function removeHints(m: MemoryLayout, names: string[]): Promise<void> {
  for (const name of names) await removeFile(join(m.pending, name)).catch(() => undefined)
}
