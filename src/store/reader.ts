/**
 * The read side of the project store: what the hooks read on every call (the cursor head, the session's
 * hook state, the index, a snapshot, the compact resume), apart from the writers, locks and renderers
 * of store.ts, so that a hook that only reads loads only this. ProjectStore (store.ts) extends it.
 */
import type { ExtractState } from '../extract/model.js'
import { type SessionHooks, type WorkClock, newSessionHooks, workClock } from '../narrative/freshness.js'
import { isObject } from '../shared/json.js'
import type { Snapshot } from '../snapshot/model.js'
import type { TranscriptCursor } from '../transcript/read.js'
import type { LedgerMemo } from '../repo/ledger-memo.js'
import { type Stamp, isSymlink } from './fs.js'
import { lstatOrNone } from '../shared/fsp.js'
import { type ProjectLayout, type StateLayout, compactResumePath, cursorPath, isSnapshotId, projectLayout, sessionHooksPath, snapshotPath } from './layout.js'
import { SymlinkRefused } from '../shared/errors.js'
import { readJson, readStoreFile } from './read.js'
import type { Seal } from '../trust/mac.js'
import { sealOf, stateOf } from './state.js'

export const INDEX_VERSION = 1
/** 2: the head alone; the session's state is a file of its own. */
export const CURSOR_VERSION = 2

export interface IndexEntry {
  id: string
  /** The store's own order of captures (1, 2, …): the newest is the highest, whatever the clock said. */
  seq: number
  createdAt: string
  sessionId: string
  trigger: string
  task: string | null
  branch?: string
  files: number
}

export interface Index {
  version: number
  snapshots: IndexEntry[]
}

/** cursors/<session>.json: small, read by every capture and hook of the session. */
export interface CursorHead {
  version: number
  sessionId: string
  transcript: string
  cursor: TranscriptCursor
  updatedAt: string
  /** Names the state file written with this head: a head and a state of different captures never mix. */
  stateId: string
  /** When the session's work happened (what the narrative freshness rules need). */
  work: WorkClock
  /** The text of the last assistant message in the state (so a Stop payload's message is told new without it). */
  lastAssistantText?: string
  /** The branch the transcript last named. */
  branch?: string
  lastSnapshot?: string
  /** The last `last_assistant_message` a Stop payload carried (so it is not recorded twice). */
  lastHookMessage?: string
  /**
   * The transcript's stamp (store/fs.ts) when the capture that wrote this head had read it to its end: while the
   * file's stamp is the same, nothing was written to it since, and a hook tells that from one stat.
   */
  transcriptStamp?: Stamp
  /** Transcript bytes read by all captures of this session: equals the file size when nothing was read twice. */
  bytesReadTotal?: number
  captures?: number
  /** The last ledger check, for the next capture to reuse while git and the files are as they were. */
  ledger?: LedgerMemo
}

export interface LoadedCursor {
  head?: CursorHead
  problem?: string
}

function isEntry(e: unknown): e is IndexEntry {
  return isObject(e) && typeof e.id === 'string' && isSnapshotId(e.id) && typeof e.seq === 'number' && Number.isSafeInteger(e.seq)
}

function isIndex(v: unknown): v is Index {
  return isObject(v) && typeof v.version === 'number' && Array.isArray(v.snapshots)
}

function isCursorHead(v: unknown): v is CursorHead {
  return (
    isObject(v) &&
    v.version === CURSOR_VERSION &&
    isObject(v.cursor) &&
    typeof v.transcript === 'string' &&
    typeof v.stateId === 'string' &&
    isObject(v.work) &&
    Array.isArray(v.work.files) &&
    Array.isArray(v.work.prompts)
  )
}

/** The head that goes with `state`. */
export function headFor(
  state: ExtractState,
  fields: Omit<CursorHead, 'version' | 'stateId' | 'work' | 'lastAssistantText' | 'branch'>,
  stateId: string,
): CursorHead {
  return {
    version: CURSOR_VERSION,
    ...fields,
    stateId,
    work: workClock(state),
    ...(state.lastAssistant?.text !== undefined ? { lastAssistantText: state.lastAssistant.text } : {}),
    ...(state.branch ? { branch: state.branch } : {}),
  }
}

export function isSessionHooks(v: unknown): v is SessionHooks {
  return isObject(v) && typeof v.sessionId === 'string' && typeof v.blocks === 'number'
}

/** Newest first: by the store's sequence (a clock that ran ahead never keeps old work on top). */
export function newestFirst(a: Pick<IndexEntry, 'seq' | 'id'>, b: Pick<IndexEntry, 'seq' | 'id'>): number {
  return (b.seq ?? 0) - (a.seq ?? 0) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
}

export function isSnapshot(v: unknown): v is Snapshot {
  return isObject(v) && typeof v.version === 'number' && typeof v.id === 'string' && Array.isArray(v.files)
}

/** Recent guard checks by project root, and how long one is reused. */
const GUARDS = new Map<string, { at: number; guarded: Promise<void> }>()
const GUARD_REUSE_MS = 1000

export class StoreReader {
  readonly layout: ProjectLayout

  constructor(
    root: string,
    readonly bookmarkHome: string,
  ) {
    this.layout = projectLayout(root)
  }

  private guarded: Promise<void> | undefined
  private stateDir: Promise<StateLayout | undefined> | undefined
  private sealing: Promise<Seal | undefined> | undefined

  /** The project's machine-local folder in the bookmark home; undefined before this home's first capture. */
  state(): Promise<StateLayout | undefined> {
    return (this.stateDir ??= stateOf(this.bookmarkHome, this.layout.root))
  }

  /** What this project's sealed files are checked against; undefined when there is no key (nothing here is ours). */
  seal(): Promise<Seal | undefined> {
    return (this.sealing ??= sealOf(this.bookmarkHome, this.layout.root))
  }

  /** Forgets the folder and seal found (a writer that just made the key). */
  protected known(state: StateLayout, seal: Seal): void {
    this.stateDir = Promise.resolve(state)
    this.sealing = Promise.resolve(seal)
  }

  /**
   * Refuses a store whose folders are symlinks (a cloned repository could ship `.bookmark -> ~/.ssh`):
   * nothing is then read from or written to it. Files inside are opened without following links.
   */
  guard(): Promise<void> {
    if (this.guarded) return this.guarded
    // A hook reads the store through several readers within milliseconds: one check serves them for a moment
    // (the long-lived MCP server checks again after it).
    const recent = GUARDS.get(this.layout.root)
    const age = recent ? Date.now() - recent.at : -1 // a clock set back: checked again
    if (recent && age >= 0 && age < GUARD_REUSE_MS) return (this.guarded = recent.guarded)
    this.guarded = (async () => {
      const l = this.layout
      const refuse = (dir: string): never => {
        throw new SymlinkRefused(`${dir} is a symbolic link: the store never follows links (remove it)`)
      }
      // An lstat of each: no listing, whose first use in a process costs more than all five.
      for (const dir of [l.dir, l.snapshots, l.trailsDir]) if (await isSymlink(dir)) refuse(dir)
    })()
    if (GUARDS.size >= 64) GUARDS.clear()
    GUARDS.set(this.layout.root, { at: Date.now(), guarded: this.guarded })
    return this.guarded
  }

  /**
   * The index, when this user's bookmark wrote it (its seal holds); else an empty one. `untrusted` says why a
   * file that is there was not read (a clone's, another key's): nothing of it is used.
   */
  async readIndex(): Promise<{ index: Index; problem?: string; untrusted?: string }> {
    await this.guard()
    const empty: Index = { version: INDEX_VERSION, snapshots: [] }
    const seal = await this.seal()
    if (!seal)
      return (await lstatOrNone(this.layout.index))
        ? { index: empty, untrusted: `${this.layout.index}: this bookmark home has no key yet, so nothing in the project's store was written by it` }
        : { index: empty }
    const r = await readJson(this.layout.index, isIndex, seal)
    if (r.ok) return { index: { ...r.value, snapshots: r.value.snapshots.filter(isEntry).sort(newestFirst) } }
    if (r.missing) return { index: empty }
    return r.untrusted ? { index: empty, untrusted: r.reason } : { index: empty, problem: r.reason }
  }

  /** A snapshot this user's bookmark wrote under that id (its seal holds for that place); else undefined. */
  async readSnapshot(id: string): Promise<Snapshot | undefined> {
    if (!isSnapshotId(id)) return undefined
    await this.guard()
    const seal = await this.seal()
    if (!seal) return undefined
    const r = await readJson(snapshotPath(this.layout, id), isSnapshot, seal)
    return r.ok && r.value.id === id ? r.value : undefined
  }

  /** The cursor head of a session. */
  async loadCursor(sessionId: string): Promise<LoadedCursor> {
    const where = await this.state()
    if (!where) return {}
    const r = await readJson(cursorPath(where, sessionId), isCursorHead)
    if (!r.ok) return r.missing ? {} : { problem: r.reason }
    if (r.value.sessionId !== sessionId) return {}
    return { head: r.value }
  }

  async readSessionHooks(sessionId: string): Promise<SessionHooks> {
    const state = await this.state()
    if (!state) return newSessionHooks(sessionId)
    const r = await readJson(sessionHooksPath(state, sessionId), isSessionHooks)
    return r.ok && r.value.sessionId === sessionId ? { ...newSessionHooks(sessionId), ...r.value } : newSessionHooks(sessionId)
  }

  async readCompactResume(sessionId: string): Promise<string | undefined> {
    try {
      const state = await this.state()
      return state ? await readStoreFile(compactResumePath(state, sessionId)) : undefined
    } catch {
      return undefined
    }
  }
}
