/**
 * Is the narrative handoff fresh, and should the Stop hook ask the model for a new one? Pure: the file's
 * content, the session's work times and the clock come in as values.
 */
import type { ExtractState } from '../extract/model.js'

export const MIN_NARRATIVE_BYTES = 200

/** What the hooks remember per session (stored in .bookmark/sessions/<id>.json). */
export interface SessionHooks {
  version: number
  sessionId: string
  /** Stop blocks that asked for the narrative. */
  blocks: number
  lastBlockAt?: string
  /** When the check hook last asked for a refresh because the context filled up. */
  contextWarnedAt?: string
  /** Compactions seen by the PreCompact hook. */
  compactions: number
  lastCompactAt?: string
  lastIntervalSnapshotAt?: string
  /**
   * Gemini CLI: the turn of the last block (a hash of AfterAgent's prompt, which stays the user's on every retry):
   * its `stop_hook_active` stays false after a retry that used tools, so this is the loop guard there.
   */
  blockTurn?: string
  /** Gemini CLI, headless: when the first BeforeAgent gave the restore (once per session). */
  restoredAt?: string
  /** Gemini CLI: how far the chat file was looked through for a compression checkpoint. */
  chatScan?: { path: string; bytes: number }
}

export function newSessionHooks(sessionId: string): SessionHooks {
  return { version: 1, sessionId, blocks: 0, compactions: 0 }
}

/** The narrative as read from disk, already parsed. */
export interface NarrativeState {
  exists: boolean
  bytes: number
  /** Its header was parsed and names this project. */
  identityOk: boolean
  /** `written` from the header (ISO), when valid. */
  written?: string
  hasSection: boolean
  templateOnly: boolean
  tracked: boolean
}

export interface Work {
  files: number
  requests: number
  /** Commits made (absent: none known, as in a cursor written before they were counted). */
  commits?: number
}

/**
 * When the session's work happened, as epoch milliseconds (null: no time recorded): each changed file's
 * last change, and each request in order. Kept in the small cursor head, so a hook can judge the work
 * since a moment without loading the whole extraction state.
 */
export interface WorkClock {
  files: (number | null)[]
  prompts: (number | null)[]
  /** Each commit the session made (absent in a cursor head written before commits were counted). */
  commits?: (number | null)[]
}

const ms = (ts: string | undefined): number | null => {
  const t = ts === undefined ? Number.NaN : Date.parse(ts)
  return Number.isFinite(t) ? t : null
}

export function workClock(state: ExtractState): WorkClock {
  return {
    files: Object.values(state.files).map((f) => ms(f.lastTs)),
    prompts: state.prompts.map((p) => ms(p.ts)),
    commits: state.git.filter((g) => g.event.kind === 'commit').map((g) => ms(g.ts)),
  }
}

/** Changed files and new requests after `since` (ISO; undefined = the whole session). */
export function workSinceClock(clock: WorkClock, since: string | undefined): Work {
  const sinceMs = since === undefined ? Number.NEGATIVE_INFINITY : Date.parse(since)
  const after = (t: number | null): boolean => since === undefined || (t !== null && t > sinceMs)
  let files = 0
  for (const t of clock.files) if (after(t)) files++
  let requests = 0
  for (let i = clock.prompts.length - 1; i >= 0; i--) {
    if (!after(clock.prompts[i]!)) break
    requests++
  }
  let commits = 0
  for (const t of Array.isArray(clock.commits) ? clock.commits : []) if (after(typeof t === 'number' ? t : null)) commits++
  return { files, requests, commits }
}

export function workSince(state: ExtractState, since: string | undefined): Work {
  return workSinceClock(workClock(state), since)
}

export function meaningful(work: Work, requestsThreshold: number): boolean {
  return work.files > 0 || (work.commits ?? 0) > 0 || work.requests >= requestsThreshold
}

export type Freshness = { fresh: boolean; reason: string }

/** A time further ahead of now than two clocks may disagree: written while the clock ran ahead, or made up. */
export const FUTURE_SKEW_MS = 5 * 60_000

export function isFuture(atMs: number, nowMs: number): boolean {
  return Number.isFinite(atMs) && atMs - nowMs > FUTURE_SKEW_MS
}

export interface FreshnessRules {
  requestsThreshold: number
  /** Minutes of further work after which a narrative written on request goes stale again. */
  refreshMinutes: number
  nowMs: number
}

export function narrativeFreshness(n: NarrativeState, hooks: SessionHooks, workAfterWritten: Work, rules: FreshnessRules): Freshness {
  if (!n.exists) return { fresh: false, reason: 'no narrative yet' }
  if (n.tracked) return { fresh: false, reason: 'the narrative file is tracked by git (it came with the repository)' }
  if (n.bytes <= MIN_NARRATIVE_BYTES) return { fresh: false, reason: `the narrative is too short (${n.bytes} bytes)` }
  if (!n.hasSection) return { fresh: false, reason: 'the narrative has no "## " section' }
  if (n.templateOnly) return { fresh: false, reason: 'the narrative is still the template' }
  if (!n.identityOk || n.written === undefined) return { fresh: false, reason: 'the narrative has no valid identity header for this project' }
  const written = Date.parse(n.written)
  // Written under a clock that ran ahead: no work would ever count as after it.
  if (isFuture(written, rules.nowMs)) return { fresh: false, reason: 'the narrative is dated in the future (a clock that ran ahead)' }
  if (!meaningful(workAfterWritten, rules.requestsThreshold)) return { fresh: true, reason: 'no meaningful work since it was written' }
  const commits = workAfterWritten.commits ?? 0
  // A commit after the handoff makes what it says about the work wrong ("nothing committed yet"), however recent it is.
  if (commits > 0)
    return {
      fresh: false,
      reason: `${commits} commit${commits === 1 ? '' : 's'}, ${workAfterWritten.files} files changed and ${workAfterWritten.requests} requests since it was written`,
    }
  // Compared to the second: a header may drop the milliseconds of the time it was given.
  const asked = hooks.lastBlockAt !== undefined ? Math.floor(Date.parse(hooks.lastBlockAt) / 1_000) * 1_000 : Number.NaN
  const minutes = (rules.nowMs - written) / 60_000
  if (Number.isFinite(asked) && written >= asked && minutes < rules.refreshMinutes) return { fresh: true, reason: 'written after the last request for it' }
  const age = Number.isFinite(asked) && written >= asked ? `, ${Math.floor(minutes)} minutes after it was last asked for` : ''
  return { fresh: false, reason: `${workAfterWritten.files} files changed and ${workAfterWritten.requests} requests since it was written${age}` }
}

export interface StopDecisionInput {
  stopHookActive: boolean
  freshness: Freshness
  hooks: SessionHooks
  /** Work since the narrative was written (or the whole session without one). */
  work: Work
  /** Work since the last block (undefined without a block). */
  workSinceBlock?: Work
  nowMs: number
  maxBlocks: number
  refreshMinutes: number
  requestsThreshold: number
  /** Nobody at the keyboard (claude -p, SDK, CI): a block's answer would become the run's result. */
  headless: boolean
  /** The narrativeInHeadless key: ask in non-interactive runs too. */
  narrativeInHeadless: boolean
}

export type StopDecision = { block: boolean; why: string }

/**
 * May a hook ask the model for the narrative at all? Not in a non-interactive run unless opted in: under
 * `claude -p` the model's reply to our request would replace the answer the script asked for (issue 16).
 */
export function mayAskForNarrative(headless: boolean, narrativeInHeadless: boolean): boolean {
  return !headless || narrativeInHeadless
}

export function decideStop(i: StopDecisionInput): StopDecision {
  const d = decideStale(i)
  if (d.block && !mayAskForNarrative(i.headless, i.narrativeInHeadless))
    return { block: false, why: `non-interactive run (narrativeInHeadless 0); would have asked: ${d.why}` }
  return d
}

function decideStale(i: StopDecisionInput): StopDecision {
  if (i.stopHookActive) return { block: false, why: 'stop_hook_active: the model is already continuing because of a Stop hook' }
  if (i.freshness.fresh) return { block: false, why: `narrative fresh: ${i.freshness.reason}` }
  if (!meaningful(i.work, i.requestsThreshold)) return { block: false, why: 'no meaningful work since the narrative' }
  if (i.maxBlocks <= 0) return { block: false, why: 'narrative blocks are disabled (maxNarrativeBlocks 0)' }
  if (i.hooks.blocks < i.maxBlocks) return { block: true, why: `narrative stale: ${i.freshness.reason}` }
  const last = i.hooks.lastBlockAt ? Date.parse(i.hooks.lastBlockAt) : Number.NaN
  if (!Number.isFinite(last)) return { block: false, why: 'block limit for this session reached' }
  // A last block dated in the future (a clock that ran ahead) would never re-arm: it counts as long past.
  const minutes = isFuture(last, i.nowMs) ? Number.POSITIVE_INFINITY : (i.nowMs - last) / 60_000
  if (minutes < i.refreshMinutes) return { block: false, why: `block limit reached; re-arms ${Math.ceil(i.refreshMinutes - minutes)} minutes from now` }
  if (!i.workSinceBlock || !meaningful(i.workSinceBlock, i.requestsThreshold))
    return { block: false, why: 'block limit reached and no meaningful work since the last block' }
  return { block: true, why: `narrative stale after ${Math.floor(minutes)} minutes of further work: ${i.freshness.reason}` }
}
