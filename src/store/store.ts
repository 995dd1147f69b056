/**
 * The project store: the only writer of `.bookmark/`. Snapshot files, the index, LATEST.md and the
 * trail are written atomically; the shared ones under the project lock.
 */
import { chmod, lstatOrNone, readdir, removeFile, stat } from '../shared/fsp.js'
import { basename, dirname } from 'node:path'
import type { ExtractState } from '../extract/model.js'
import type { SessionHooks } from '../narrative/freshness.js'
import { dict, isObject } from '../shared/json.js'
import type { Snapshot } from '../snapshot/model.js'
import type { TrailEntry, Trails } from '../snapshot/render.js'
import { isSymlink } from './fs.js'
import { type StateLayout, compactResumePath, cursorLockPath, cursorPath, cursorStatePath, isSnapshotId, sessionHooksPath, snapshotPath } from './layout.js'
import { SymlinkRefused } from '../shared/errors.js'
import { readJson, readStoreFile } from './read.js'
import { CURSOR_VERSION, type CursorHead, INDEX_VERSION, type Index, type IndexEntry, StoreReader, isSessionHooks, newestFirst } from './reader.js'
import { compareText } from '../shared/text.js'
import type { Seal } from '../trust/mac.js'
import type { LockOptions } from './lock.js'

export {
  CURSOR_VERSION,
  type CursorHead,
  INDEX_VERSION,
  type Index,
  type IndexEntry,
  type LoadedCursor,
  StoreReader,
  headFor,
  isSnapshot,
  newestFirst,
} from './reader.js'

/**
 * The writers, the lock and the renderers are loaded on the first write: a hook that only reads (most
 * of them, most of the time) never compiles the redactor they bring.
 */
const writers = (): Promise<typeof import('./files.js')> => import('./files.js')
const locks = (): Promise<typeof import('./lock.js')> => import('./lock.js')
const renderers = (): Promise<typeof import('../snapshot/render.js')> => import('../snapshot/render.js')

export const TRAILS_VERSION = 1
export const DEFAULT_INDEX_CAP = 50
/** A session's captures sweep what killed processes left on their first, forced and every this-many-th capture. */
export const SWEEP_EVERY = 16
const TRAIL_CAP_PER_FILE = 20
const TRAIL_CAP_FILES = 1_000
/** A snapshot file not in the index for this long was left by a killed capture. */
const ORPHAN_AGE_MS = 10 * 60_000

/** cursors/<session>.state.json */
interface StateFile {
  version: number
  sessionId: string
  stateId: string
  state: ExtractState
}

function isStateFile(v: unknown): v is StateFile {
  return isObject(v) && typeof v.stateId === 'string' && isObject(v.state)
}

export const ERRORS_LOG_CAP = 256 * 1024

/** Appends one line to a capped log (atomically rewritten under a lock; the newest half is kept). */
export async function appendCapped(path: string, line: string, cap = ERRORS_LOG_CAP, lockDeadline?: number): Promise<void> {
  // Never into a store folder that is a symlink: it could lead anywhere.
  if (await isSymlink(dirname(path))) throw new SymlinkRefused(`${dirname(path)} is a symbolic link: not written`)
  const [{ untilDeadline, withLock }, { writeText }] = await Promise.all([locks(), writers()])
  await withLock(
    `${path}.lock`,
    async () => {
      let current = ''
      try {
        current = await readStoreFile(path)
      } catch {
        current = ''
      }
      let next = current + (line.endsWith('\n') ? line : `${line}\n`)
      if (next.length > cap) {
        next = next.slice(next.length - Math.floor(cap / 2))
        next = next.slice(next.indexOf('\n') + 1)
      }
      await writeText(path, next)
    },
    untilDeadline(lockDeadline, 200),
  ) // a line lost is a failure no one sees: a moment past a hook's deadline
}

export function isTrails(v: unknown): v is Trails {
  return isObject(v) && typeof v.version === 'number' && isObject(v.files)
}

export function indexEntry(s: Snapshot): IndexEntry {
  return {
    id: s.id,
    seq: s.seq ?? 0,
    createdAt: s.createdAt,
    sessionId: s.session.id,
    trigger: s.trigger,
    task: s.task ? s.task.slice(0, 200) : null,
    ...(s.session.branch ? { branch: s.session.branch } : {}),
    files: s.files.length,
  }
}

/** The trail's line for a file of `snapshot` (`f` undefined: the file was touched, then moved away). */
export function trailEntry(snapshot: Snapshot, f: Snapshot['files'][number] | undefined): TrailEntry {
  return {
    ts: f?.lastTs ?? snapshot.createdAt,
    snapshot: snapshot.id,
    session: snapshot.session.id,
    op: f ? (f.from ? `${f.op} from ${f.from}` : f.op) : 'moved away',
    added: f?.added ?? 0,
    removed: f?.removed ?? 0,
    hints: f?.hints ?? [],
  }
}

/**
 * Where each text of a cursor head comes from (a field added to `CursorHead` must be placed here): the
 * payload (redacted when stored), the redacted state it was built from (`headFor`: stored as it is when it
 * still equals the state's), or the program itself (ids, times, numbers, and the cursor's fingerprints of the
 * transcript's bytes, which must stay as they are to be compared).
 */
const HEAD_FIELDS: Readonly<Record<keyof CursorHead, 'payload' | 'state' | 'own'>> = {
  version: 'own',
  sessionId: 'payload',
  transcript: 'payload',
  cursor: 'own',
  updatedAt: 'own',
  stateId: 'own',
  work: 'own',
  lastAssistantText: 'state',
  branch: 'state',
  lastSnapshot: 'own',
  lastHookMessage: 'payload',
  transcriptStamp: 'own',
  bytesReadTotal: 'own',
  captures: 'own',
  ledger: 'own', // the snapshot's paths (redacted), a commit id, stat numbers
}

/**
 * `head` as stored when `state` is the redacted state it was built from: only its text from elsewhere is
 * redacted (HEAD_FIELDS; a field not listed there, which the types rule out, is redacted whole). Walking the
 * whole head ran every rule over the cursor's bytes with the redactor's expressions still cold.
 */
export function storedHead(head: CursorHead, state: ExtractState, redact: (text: string) => string, redactDeep: <T>(value: T) => T): CursorHead {
  const fromState: Partial<Record<keyof CursorHead, string | undefined>> = { lastAssistantText: state.lastAssistant?.text, branch: state.branch }
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(head)) {
    const kind = HEAD_FIELDS[key as keyof CursorHead] as 'payload' | 'state' | 'own' | undefined
    if (kind === 'own' || (kind === 'state' && value === fromState[key as keyof CursorHead])) out[key] = value
    else out[key] = typeof value === 'string' ? redact(value) : redactDeep(value)
  }
  return out as unknown as CursorHead
}

/** How a store writes: where the bookmark home is, how many snapshots it keeps, how long it waits for a lock. */
export interface StoreOptions {
  bookmarkHome: string
  indexCap?: number
  /** The moment (epoch ms) after which no lock is waited for: a hook answers within 2 s; default, 15 s a lock. */
  lockDeadline?: number
}

export class ProjectStore extends StoreReader {
  private readonly indexCap: number
  private readonly lockDeadline: number | undefined

  constructor(root: string, options: StoreOptions) {
    super(root, options.bookmarkHome)
    this.indexCap = options.indexCap ?? DEFAULT_INDEX_CAP
    this.lockDeadline = options.lockDeadline
  }

  private async lockOptions(): Promise<LockOptions> {
    return (await locks()).untilDeadline(this.lockDeadline)
  }

  private made: Promise<{ state: StateLayout; seal: Seal }> | undefined

  /** The project's folder in the home and its seal, made (with the key) when missing; once per store. */
  writable(): Promise<{ state: StateLayout; seal: Seal }> {
    this.made ??= (async () => {
      const { ensureSeal, ensureState } = await import('./state-write.js') // brings the writers: loaded on the first write
      const [state, seal] = await Promise.all([ensureState(this.bookmarkHome, this.layout.root), ensureSeal(this.bookmarkHome, this.layout.root)])
      this.known(state, seal)
      return { state, seal }
    })()
    // A failure (a full disk) is not kept: the next write tries again.
    this.made.catch(() => (this.made = undefined))
    return this.made
  }

  /**
   * States this store redacted for storage (`redactState`): written, and built on, as they are. Each with its long
   * strings, which a snapshot copies into objects of its own (redactAround's `strings`).
   */
  private readonly redactedStates = new WeakMap<ExtractState, ReadonlySet<string>>()

  /**
   * The session's state as it is stored: redacted once per capture (`prior`: the stored state it grew out of, parsed
   * apart, whose strings are not redacted again, redactOver). Build the snapshot and the head from it: `saveSnapshot`
   * then redacts only what the snapshot adds around it, and `saveCursor` writes it as it is.
   */
  async redactState(state: ExtractState, prior?: unknown): Promise<ExtractState> {
    const { redactDeep, redactOver } = await import('../redact/secrets.js')
    const long = new Set<string>()
    const redacted = prior !== undefined ? redactOver(state, prior, long) : redactDeep(state)
    this.redactedStates.set(redacted, long)
    return redacted
  }

  async ensure(): Promise<void> {
    await this.guard()
    await this.writable()
    const { ensureDir, writeText } = await writers()
    const l = this.layout
    await ensureDir(l.dir)
    await Promise.all([ensureDir(l.snapshots), ensureDir(l.trailsDir)])
    const current = await readStoreFile(l.gitignore).catch(() => '')
    if (current.trim() !== '*') await writeText(l.gitignore, '*\n')
    // The model writes the handoff with its own tool, under the user's umask: private like the rest of the store.
    const handoff = await lstatOrNone(l.narrative).catch(() => undefined)
    if (handoff?.isFile() && (handoff.mode & 0o077) !== 0 && handoff.uid === (process.getuid?.() ?? handoff.uid))
      await chmod(l.narrative, 0o600).catch(() => undefined)
  }

  /**
   * The state written with `head`; undefined (with why) when it is missing, broken or of another capture. `prior`:
   * the same state parsed apart, for `redactState` to compare with once the capture has changed `state`.
   */
  async loadState(head: CursorHead): Promise<{ state?: ExtractState; prior?: unknown; problem?: string }> {
    const state = await this.state()
    if (!state) return { problem: 'its state file is missing' }
    const r = await readJson(cursorStatePath(state, head.sessionId), isStateFile, undefined, 2)
    if (!r.ok) return { problem: r.missing ? 'its state file is missing' : r.reason }
    if (r.value.stateId !== head.stateId || r.value.sessionId !== head.sessionId) return { problem: 'its state file belongs to another capture' }
    return { state: r.value.state, prior: isStateFile(r.again) ? r.again.state : undefined }
  }

  /**
   * The state first, then the head that names it: a crash in between leaves a head whose state does not
   * match (read again). A state from `redactState` is written as it is, and so is what its head took from it.
   */
  async saveCursor(head: CursorHead, state: ExtractState): Promise<void> {
    const [{ writeJson }, { state: dir }] = await Promise.all([writers(), this.writable()])
    const file: StateFile = { version: CURSOR_VERSION, sessionId: head.sessionId, stateId: head.stateId, state }
    const built = this.redactedStates.has(state)
    // Any other state (none is passed today) and its head are redacted whole.
    await writeJson(cursorStatePath(dir, head.sessionId), file, { compact: true, ...(built ? { around: { state } } : {}) })
    if (!built) return writeJson(cursorPath(dir, head.sessionId), head)
    const { redact, redactDeep } = await import('../redact/secrets.js')
    await writeJson(cursorPath(dir, head.sessionId), storedHead(head, state, redact, redactDeep), { redacted: true })
  }

  /** Read-modify-write of the session's hook state under its own lock. */
  async updateSessionHooks(sessionId: string, fn: (h: SessionHooks) => SessionHooks | undefined): Promise<SessionHooks> {
    const [{ withLock }, { writeJson }, { state }] = await Promise.all([locks(), writers(), this.writable()])
    const path = sessionHooksPath(state, sessionId)
    return withLock(
      `${path}.lock`,
      async () => {
        const current = await this.readSessionHooks(sessionId)
        const next = fn(current)
        if (next) await writeJson(path, next)
        return next ?? current
      },
      await this.lockOptions(),
    )
  }

  async allSessionHooks(): Promise<SessionHooks[]> {
    const state = await this.state()
    if (!state) return []
    let names: string[] = []
    try {
      names = await readdir(state.sessions)
    } catch {
      return []
    }
    const out: SessionHooks[] = []
    for (const name of names) {
      if (!name.endsWith('.json')) continue
      const r = await readJson(`${state.sessions}/${name}`, isSessionHooks)
      if (r.ok) out.push(r.value)
    }
    return out
  }

  async writeCompactResume(sessionId: string, text: string): Promise<void> {
    const [{ writeText }, { state }] = await Promise.all([writers(), this.writable()])
    await writeText(compactResumePath(state, sessionId), text)
  }

  /** Appends a line to the project's errors.log in the home, keeping the newest half when it passes its cap. */
  async logError(line: string): Promise<void> {
    const { state } = await this.writable()
    await appendCapped(state.errorsLog, line, ERRORS_LOG_CAP, this.lockDeadline)
  }

  /**
   * Runs `fn` under the project lock, the one `saveSnapshot` takes, with the home folder and the seal: for a
   * rewrite of the index, LATEST.md and the trail that is not a capture (`bookmark forget`, forget.ts).
   */
  async withProjectLock<T>(fn: (w: { state: StateLayout; seal: Seal }) => Promise<T>): Promise<T> {
    const [{ withLock }, w] = await Promise.all([locks(), this.writable()])
    return withLock(w.state.lock, () => fn(w), await this.lockOptions())
  }

  /** Runs `fn` while holding this session's capture lock (one capture per session at a time). */
  async withSessionLock<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
    const [{ withLock }, { state }] = await Promise.all([locks(), this.writable()])
    return withLock(cursorLockPath(state, sessionId), fn, await this.lockOptions())
  }

  /**
   * Under the project lock: numbers the snapshot (the store's own sequence, one above the highest it has),
   * writes its file, adds it to the index (pruning what falls off), rewrites LATEST.md and updates the trail.
   * Every file that is read back is sealed (trust/mac.ts). The snapshot is redacted once and that copy feeds all
   * four files: when it was built from a state of `redactState` (`from`), only what it adds around that state
   * (and `alsoClean`, see redactAround) is redacted; else all of it. `tidy` (default true) also removes what killed
   * processes left (old temp files, unlisted snapshot files of this user's): a capture in the middle of a session
   * leaves that to the next first, forced or every SWEEP_EVERY-th capture, five folder listings it need not make
   * every turn.
   */
  async saveSnapshot(
    raw: Snapshot,
    touched: string[],
    options: { from?: ExtractState; fieldNames?: readonly string[]; alsoClean?: Iterable<object>; tidy?: boolean } = {},
  ): Promise<{ pruned: string[]; snapshot: Snapshot }> {
    const { from, fieldNames, alsoClean, tidy = true } = options
    const l = this.layout
    const [{ redactAround, writeJson, writeText }, { redact, redactDeep }, { withLock }, { renderLatest }, { sweepTemps }, { state, seal }] = await Promise.all(
      [writers(), import('../redact/secrets.js'), locks(), renderers(), import('./sweep.js'), this.writable()],
    )
    const long = from !== undefined ? this.redactedStates.get(from) : undefined
    const redacted = from !== undefined && long !== undefined ? redactAround(raw, from, fieldNames, alsoClean, long) : redactDeep(raw)
    return withLock(
      state.lock,
      async () => {
        const read = await this.readIndex()
        // A broken or missing index is rebuilt from this user's snapshot files: nothing on disk is forgotten.
        const index = read.problem !== undefined || read.untrusted !== undefined || read.index.snapshots.length === 0 ? await this.rebuildIndex() : read.index
        const seq = index.snapshots.reduce((max, e) => Math.max(max, e.seq), 0) + 1
        const snapshot: Snapshot = { ...redacted, seq }
        const file = snapshotPath(l, snapshot.id)
        await writeJson(file, snapshot, { redacted: true, compact: true, seal })
        try {
          const others = index.snapshots.filter((e) => e.id !== snapshot.id)
          // The other entries were redacted when index.json was written: only the new one is (files.ts, `redacted`).
          const all = [redactDeep(indexEntry(snapshot)), ...others].sort(newestFirst)
          // The index only lists snapshot files that exist.
          const present = await this.existing(all.map((e) => e.id))
          const listed = all.filter((e) => e.id === snapshot.id || present.has(e.id))
          const kept = listed.slice(0, this.indexCap)
          // Only entries of this user's own index fall off: a file that came with the project is never listed.
          const pruned = listed.slice(this.indexCap).map((e) => e.id)
          await writeJson(l.index, { version: INDEX_VERSION, snapshots: kept } satisfies Index, { redacted: true, seal })
          await writeText(l.latest, renderLatest(snapshot), { redacted: true })
          await this.updateTrails(
            snapshot,
            touched.map((p) => redact(p)),
            seal,
          )
          for (const id of pruned) await removeFile(snapshotPath(l, id))
          if (tidy) {
            await this.removeOrphans(new Set(kept.map((e) => e.id)))
            for (const dir of [l.dir, l.trailsDir, state.dir, state.cursors, state.sessions]) await sweepTemps(dir)
          }
          return { pruned, snapshot }
        } catch (e) {
          // The index could not take it (a full disk): the snapshot file must not linger unlisted. If the index
          // did take it (a later write failed), the file stays: the index never lists a missing snapshot.
          const { index: now } = await this.readIndex().catch(() => ({ index: { version: INDEX_VERSION, snapshots: [] as IndexEntry[] } }))
          if (!now.snapshots.some((x) => x.id === snapshot.id)) await removeFile(file).catch(() => undefined)
          throw e
        }
      },
      await this.lockOptions(),
    )
  }

  /** The index as this user's snapshot files on disk describe it (used when index.json is missing, broken or not ours). */
  async rebuildIndex(): Promise<Index> {
    let names: string[] = []
    try {
      names = await readdir(this.layout.snapshots)
    } catch {
      names = []
    }
    const entries: IndexEntry[] = []
    for (const name of names) {
      const id = basename(name, '.json')
      if (!name.endsWith('.json') || !isSnapshotId(id)) continue
      const snap = await this.readSnapshot(id) // only sealed with this user's key
      if (snap && typeof snap.seq === 'number') entries.push(indexEntry(snap))
    }
    entries.sort(newestFirst)
    return { version: INDEX_VERSION, snapshots: entries }
  }

  private async existing(ids: string[]): Promise<Set<string>> {
    let names: string[]
    try {
      names = await readdir(this.layout.snapshots)
    } catch {
      return new Set()
    }
    const onDisk = new Set(names.filter((n) => n.endsWith('.json')).map((n) => basename(n, '.json')))
    return new Set(ids.filter((id) => onDisk.has(id)))
  }

  /**
   * Snapshot files of this user's that no index entry names, left by a capture killed between its two writes.
   * Only old ones (a fresh one may belong to a capture that is waiting for the lock right now), and only
   * sealed ones: a file that came with the project is not ours to delete (doctor names it).
   */
  private async removeOrphans(keep: Set<string>): Promise<void> {
    const { isTempName } = await import('./sweep.js')
    let names: string[]
    try {
      names = await readdir(this.layout.snapshots)
    } catch {
      return
    }
    const now = Date.now()
    for (const name of names) {
      const id = basename(name, '.json')
      const path = `${this.layout.snapshots}/${name}`
      if (!name.endsWith('.json') || !isSnapshotId(id) || keep.has(id)) {
        if (isTempName(name)) await this.removeIfOlder(path, now, ORPHAN_AGE_MS) // left by a killed write
        continue
      }
      if (await this.readSnapshot(id)) await this.removeIfOlder(path, now, ORPHAN_AGE_MS)
    }
  }

  private async removeIfOlder(path: string, now: number, ageMs: number): Promise<void> {
    try {
      const s = await stat(path)
      // A time from the future (a clock that ran ahead, a planted file) says nothing about age: kept.
      if (now - s.mtimeMs > ageMs) await removeFile(path)
    } catch {
      // already gone
    }
  }

  private async updateTrails(snapshot: Snapshot, touched: string[], seal: Seal): Promise<void> {
    if (touched.length === 0) return
    const l = this.layout
    const [{ writeJson, writeText }, { renderTrails }, { redactDeep }] = await Promise.all([writers(), renderers(), import('../redact/secrets.js')])
    // Only this user's trail is built on: one that came with the project starts over.
    const r = await readJson(l.trailsJson, isTrails, seal)
    const trails: Trails = { version: TRAILS_VERSION, files: dict(r.ok ? r.value.files : undefined) }
    const byPath = new Map(snapshot.files.map((f) => [f.path, f]))
    for (const path of touched) {
      const f = byPath.get(path)
      const entry: TrailEntry = redactDeep(trailEntry(snapshot, f))
      // One line per session and file, updated as the session goes on; newest first.
      const list = (trails.files[path] ?? []).filter((e) => e.session !== snapshot.session.id)
      trails.files[path] = [entry, ...list].slice(0, TRAIL_CAP_PER_FILE)
    }
    const paths = Object.keys(trails.files)
    if (paths.length > TRAIL_CAP_FILES) {
      const oldest = paths.sort((a, b) => compareText(trails.files[a]?.[0]?.ts ?? '', trails.files[b]?.[0]?.ts ?? ''))
      for (const p of oldest.slice(0, paths.length - TRAIL_CAP_FILES)) delete trails.files[p]
    }
    // Old entries as stored (redacted when written), new ones redacted above; `touched` comes redacted. One line:
    // files.md is the trail people read, and indenting a long project's trail cost each capture.
    await writeJson(l.trailsJson, trails, { redacted: true, compact: true, seal })
    // Rendered from the trail just written.
    await writeText(l.trailsMd, renderTrails(snapshot.project.name, trails), { redacted: true })
  }
}
