/**
 * The startup restore, prepared ahead. A new session's SessionStart (source startup or clear) shows the
 * narrative and the latest snapshot; computing that means reading both, the git state and the index,
 * then rendering and redacting, on the host's start-up path. A hook capture that writes a snapshot (Stop,
 * check's interval snapshot, PreCompact) prepares that answer (restore.ts, prepareRestore) in
 * `restore.prepared.json` of the project's folder in the bookmark home (remembered.ts), with the key of
 * everything the answer was made from:
 * - the build of this package and the configuration it used (budget, staleness hours);
 * - the branch and HEAD commit (the handoff's identity check);
 * - stamps of the handoff, the index (which names the latest snapshot) and git's index (whether the
 *   handoff is tracked);
 * and the moment its first age verdict would change (24 hours after the handoff, the snapshot, or the earlier
 * session whose work it shows when the latest did none, by default): an answer that carries an age warning is
 * never prepared, as its wording changes with time.
 * SessionStart answers from the file only when the key it computes now is the same and that moment is
 * still ahead; otherwise it computes the answer as before (restore.ts). The file holds text the restore
 * would print anyway, already redacted.
 */
import type { Config } from '../config/keys.js'
import { isObject } from '../shared/json.js'
import type { Project } from '../repo/project.js'
import { stateLayout } from '../store/layout.js'
import { readJson } from '../store/read.js'
import { stateOf } from '../store/state.js'
import { type Stamp, fileStamp } from '../store/fs.js'
import { type BaseKey, baseKey, recall } from './remembered.js'
import type { HookContext } from './run.js'
import type { Host } from '../hosts/host.js'

export const PREPARED_VERSION = 1

interface PreparedKey extends BaseKey {
  budget: number
  warnHours: number
  refuseHours: number
  index: Stamp
}

interface PreparedRestore {
  /** Epoch ms from which the answer may read differently (an age verdict changes). */
  validUntil: number
  /** What the restore prints as additionalContext; null when it prints nothing. */
  text: string | null
}

/** The key of a startup restore of `project` under `config`, as the files stand now (git as the project read it). */
export async function restoreKey(project: Project, config: Pick<Config, 'restoreBudget' | 'staleWarnHours' | 'staleRefuseHours'>): Promise<PreparedKey> {
  const base = await baseKey(project.root, await project.git())
  return {
    ...base,
    budget: config.restoreBudget,
    warnHours: config.staleWarnHours,
    refuseHours: config.staleRefuseHours,
    index: await fileStamp(project.layout.index),
  }
}

function isPrepared(v: unknown): v is PreparedRestore {
  return isObject(v) && typeof v.validUntil === 'number' && (typeof v.text === 'string' || v.text === null)
}

/** A SessionStart that shows the startup restore: not a compaction, a resume or a fork. */
function isStartup(source: string | undefined): boolean {
  return source !== 'compact' && source !== 'resume' && source !== 'fork'
}

/** The prepared answer when it still holds; undefined when the restore must be computed. */
export async function preparedRestore(ctx: HookContext): Promise<PreparedRestore | undefined> {
  if (ctx.homeScope || !isStartup(ctx.event.source)) return undefined
  const key = await restoreKey(ctx.project, ctx.cfg.resolved.config)
  // Without an index there is nothing to restore from.
  if (key.index === null) return undefined
  const prepared = await recall((await stateOf(ctx.deps.bookmarkHome, ctx.project.root))?.prepared, PREPARED_VERSION, key, isPrepared).catch(() => undefined)
  return prepared && ctx.now.getTime() < prepared.validUntil ? prepared : undefined
}

/**
 * The text prepared for the project whose folder in the home is `id`, while it holds: for a session outside
 * any project, whose pointer names the project by that id (its path may be stored redacted). The key is not
 * compared: the path it holds is what is not known here; the answer's own time limit still applies.
 */
export async function preparedTextOf(bookmarkHome: string, id: string, now: Date): Promise<string | undefined> {
  const r = await readJson(
    stateLayout(bookmarkHome, id).prepared,
    (v): v is { version: number; value: PreparedRestore } => isObject(v) && v.version === PREPARED_VERSION && isPrepared(v.value),
  )
  return r.ok && r.value.value.text !== null && now.getTime() < r.value.value.validUntil ? r.value.value.text : undefined
}

/** The host's answer that injects `text` at session start, within `budget` characters in all; nothing for no text. */
export function wrapRestore(host: Host, text: string | null | undefined, budget: number): unknown | undefined {
  if (text === undefined || text === null || text.trim() === '') return undefined
  return host.inject('restore', text, budget)
}

/** The budget of what a SessionStart of `ctx` injects: the compact one after a compaction in a project. */
export function restoreBudgetOf(ctx: Pick<HookContext, 'event' | 'homeScope' | 'cfg'>): number {
  const { config } = ctx.cfg.resolved
  return ctx.event.source === 'compact' && !ctx.homeScope ? config.compactBudget : config.restoreBudget
}
