/**
 * The startup restore, prepared ahead. A new session's SessionStart (source startup or clear) shows the
 * narrative and the latest snapshot; computing that means reading both, the git state and the index,
 * then rendering and redacting, on the host's start-up path. A hook capture that writes a snapshot (Stop,
 * check's interval snapshot, PreCompact) prepares that answer (restore.ts, prepareRestore) in
 * `.bookmark/restore.prepared.json`, with the key of everything the answer was made from:
 * - the configuration it used (budget, staleness hours) and the build of this package;
 * - the branch and HEAD commit (the handoff's identity check);
 * - size, times and inode of the handoff, the index (which names the latest snapshot) and git's index
 *   (whether the handoff is tracked);
 * - the moment its first age verdict would change (24 hours after the handoff or the snapshot, by
 *   default): an answer that carries an age warning is never prepared, as its wording changes with time.
 * SessionStart answers from the file only when the key it computes now is the same and that moment is
 * still ahead; otherwise it computes the answer as before (restore.ts). The file holds text the restore
 * would print anyway, already redacted.
 */
import type { Stats } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config/keys.js'
import { lstatOrNone } from '../shared/fsp.js'
import { isObject } from '../shared/json.js'
import { gitIndexFile, readGitInfo } from '../store/git.js'
import { PREPARED_RESTORE, projectLayout } from '../store/layout.js'
import { readJson } from '../store/read.js'
import { StoreReader } from '../store/reader.js'
import type { HookContext } from './run.js'

export const PREPARED_VERSION = 1

// Set by scripts/bundle.mjs to a hash of the sources: an answer prepared by other code is never used.
declare const __BOOKMARK_BUILD__: string | undefined
const BUILD = typeof __BOOKMARK_BUILD__ === 'string' ? __BOOKMARK_BUILD__ : 'source'

/** size, mtime, ctime and inode of a file; null when it does not exist. */
type Stamp = [number, number, number, number] | null

export interface PreparedKey {
  build: string
  root: string
  budget: number
  warnHours: number
  refuseHours: number
  branch: string | null
  head: string | null
  narrative: Stamp
  index: Stamp
  gitIndex: Stamp
}

export interface PreparedRestore {
  version: number
  key: PreparedKey
  /** Epoch ms from which the answer may read differently (an age verdict changes). */
  validUntil: number
  /** What the restore prints as additionalContext; null when it prints nothing. */
  text: string | null
}

const stampOf = (s: Stats | undefined): Stamp => (s ? [s.size, s.mtimeMs, s.ctimeMs, s.ino] : null)

export function preparedPath(root: string): string {
  return join(projectLayout(root).dir, PREPARED_RESTORE)
}

/** The key of a startup restore of `root` under `config`, as the files stand now. */
export async function restoreKey(root: string, config: Pick<Config, 'restoreBudget' | 'staleWarnHours' | 'staleRefuseHours'>): Promise<PreparedKey> {
  const l = projectLayout(root)
  const git = await readGitInfo(root)
  const gitIndex = await gitIndexFile(root)
  return {
    build: BUILD,
    root,
    budget: config.restoreBudget,
    warnHours: config.staleWarnHours,
    refuseHours: config.staleRefuseHours,
    branch: git.branch ?? null,
    head: git.head ?? null,
    narrative: stampOf(await lstatOrNone(l.narrative)),
    index: stampOf(await lstatOrNone(l.index)),
    gitIndex: gitIndex === undefined ? null : stampOf(await lstatOrNone(gitIndex)),
  }
}

export function sameKey(a: PreparedKey, b: PreparedKey): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

function isPrepared(v: unknown): v is PreparedRestore {
  return isObject(v) && v.version === PREPARED_VERSION && isObject(v.key) && typeof v.validUntil === 'number' && (typeof v.text === 'string' || v.text === null)
}

/** A SessionStart that shows the startup restore: not a compaction, a resume or a fork. */
export function isStartup(source: string | undefined): boolean {
  return source !== 'compact' && source !== 'resume' && source !== 'fork'
}

/** The prepared answer when it still holds; undefined when the restore must be computed. */
export async function preparedRestore(ctx: HookContext): Promise<PreparedRestore | undefined> {
  if (ctx.homeScope || !isStartup(ctx.payload.source)) return undefined
  const root = ctx.cfg.projectRoot
  try {
    await new StoreReader(root).guard() // never from a store that is a symlink
    const r = await readJson(preparedPath(root), isPrepared)
    if (!r.ok || ctx.now.getTime() >= r.value.validUntil) return undefined
    return sameKey(await restoreKey(root, ctx.cfg.resolved.config), r.value.key) ? r.value : undefined
  } catch {
    return undefined
  }
}

export function wrapRestore(text: string | null | undefined): unknown | undefined {
  if (text === undefined || text === null || text.trim() === '') return undefined
  return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } }
}

/** The SessionStart hook: the prepared answer when it holds, else the full restore (restore.ts, loaded then). */
export async function restoreHookBody(ctx: HookContext): Promise<unknown | undefined> {
  const prepared = await preparedRestore(ctx)
  if (prepared) return wrapRestore(prepared.text)
  return (await import('./restore.js')).restoreHook(ctx)
}
