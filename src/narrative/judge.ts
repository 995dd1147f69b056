/**
 * The narrative as the hooks see it: read it, judge it against the session's work, and build the request
 * that asks the model for a new one.
 */
import { readFile } from '../shared/fsp.js'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Config } from '../config/keys.js'
import {
  type Freshness,
  MIN_NARRATIVE_BYTES,
  type NarrativeState,
  type SessionHooks,
  type Work,
  type WorkClock,
  isFuture,
  narrativeFreshness,
  workSinceClock,
} from './freshness.js'
import type { NarrativeRequest } from './prompt.js'
import { isObject } from '../shared/json.js'
import type { GitInfo } from '../repo/git.js'
import type { Project } from '../repo/project.js'
import { projectLayout } from '../store/layout.js'
import { stateOf } from '../store/state.js'
import { baseKey, recallKept, remember } from '../hooks/remembered.js'
import { noteHandoff } from '../store/stats.js'

/** The handoff template that ships with the package (a function: resolved only when a request is made). */
export const narrativeTemplate = (): string => fileURLToPath(new URL('../../templates/bookmark.context.md', import.meta.url))

export interface NarrativeView {
  state: NarrativeState
  freshness: Freshness
  /** Work since the narrative was written (the whole session when there is no usable one). */
  work: Work
}

const NARRATIVE_STATE_VERSION = 1

function isNarrativeState(v: unknown): v is NarrativeState {
  return (
    isObject(v) &&
    typeof v.exists === 'boolean' &&
    typeof v.bytes === 'number' &&
    typeof v.identityOk === 'boolean' &&
    typeof v.hasSection === 'boolean' &&
    typeof v.templateOnly === 'boolean' &&
    typeof v.tracked === 'boolean'
  )
}

/**
 * How the handoff stands: judged from the file (narrative/file.ts), or taken from the judgement a capturing
 * hook kept (`remember`) while the handoff, git's branch, HEAD and index are as they were then
 * (remembered.ts): a Stop with nothing new then reads no handoff and loads no parser.
 * A handoff written since the judgement kept is noted in the project's figures (store/stats.ts), and the new
 * judgement kept whatever `remember_` says, so that the next hook does not note it again.
 */
async function narrativeState(root: string, bookmarkHome: string, git: GitInfo, remember_: boolean, hooks: SessionHooks, now: Date): Promise<NarrativeState> {
  const key = await baseKey(root, git)
  // No handoff: nothing to judge.
  const kept = key.narrative !== null
  const where = kept ? await stateOf(bookmarkHome, root) : undefined
  const known = where ? await recallKept(where.narrativeState, NARRATIVE_STATE_VERSION, key, isNarrativeState) : undefined
  if (known?.current) return known.value
  const { readNarrative } = await import('./file.js')
  const { state } = await readNarrative(projectLayout(root).narrative, root, git, bookmarkHome)
  const written = newlyWritten(state, known?.value, now.getTime())
  if (where && written !== undefined) noteHandoff(where.stats, written, answered(written, hooks), now.getTime())
  if ((remember_ || written !== undefined) && where) await remember(where.narrativeState, NARRATIVE_STATE_VERSION, key, state).catch(() => undefined)
  return state
}

/** The time (epoch ms) of a handoff that is usable and other than the one judged before; undefined otherwise. */
export function newlyWritten(state: NarrativeState, before: NarrativeState | undefined, nowMs: number): number | undefined {
  if (!state.exists || state.tracked || !state.identityOk || !state.hasSection || state.templateOnly || state.bytes <= MIN_NARRATIVE_BYTES) return undefined
  if (state.written === undefined || state.written === before?.written) return undefined
  const at = Date.parse(state.written)
  return Number.isFinite(at) && !isFuture(at, nowMs) ? at : undefined
}

/** Written after the session's last narrative block (to the second, as freshness compares them). */
function answered(writtenMs: number, hooks: SessionHooks): boolean {
  const asked = hooks.lastBlockAt !== undefined ? Math.floor(Date.parse(hooks.lastBlockAt) / 1_000) * 1_000 : Number.NaN
  return Number.isFinite(asked) && writtenMs >= asked
}

/** `remember`: keep the judgement for the next hook (only hooks that wrote a capture do; one with nothing new writes nothing). */
export async function viewNarrative(
  project: Project,
  bookmarkHome: string,
  work: WorkClock,
  hooks: SessionHooks,
  config: Config,
  now: Date,
  remember_ = false,
): Promise<NarrativeView> {
  const git = await project.git()
  const state = await narrativeState(project.root, bookmarkHome, git, remember_, hooks, now)
  // A handoff dated in the future counts as none: all of the session's work is after it.
  const since = state.identityOk && state.written !== undefined && !isFuture(Date.parse(state.written), now.getTime()) ? state.written : undefined
  const done = workSinceClock(work, since)
  const freshness = narrativeFreshness(state, hooks, done, {
    requestsThreshold: config.narrativeRequests,
    refreshMinutes: config.narrativeRefreshMinutes,
    nowMs: now.getTime(),
  })
  return { state, work: done, freshness }
}

/**
 * The request for a new handoff: the template and the identity header to start it with. The header's names are
 * redacted (a branch or folder can be named after a token, and the model is told to copy the header as it is);
 * the project is proven by the seal, a keyed hash of the real root that only this user's bookmark can make.
 */
export async function narrativeRequest(project: Project, bookmarkHome: string, sessionId: string, now: Date, why: string): Promise<NarrativeRequest> {
  const { root } = project
  let template: string
  try {
    template = await readFile(narrativeTemplate(), 'utf8')
  } catch {
    template = '## Task\n\n## Progress\n\n## Decisions\n\n## Open items\n\n## Next step\n\n## Files\n'
  }
  const [{ ensureKey }, { narrativeSeal }, { redact }] = await Promise.all([
    import('../trust/make-key.js'),
    import('../trust/seal.js'),
    import('../redact/secrets.js'),
  ])
  const git = await project.git()
  const written = now.toISOString()
  const session = redact(sessionId) // as the header shows it: the seal is checked against the header
  const seal = narrativeSeal(await ensureKey(bookmarkHome), root, { session_id: session, written })
  return {
    identity: {
      scope: 'repo',
      project: redact(basename(root)),
      repo_path: redact(root),
      ...(git.branch ? { branch: redact(git.branch) } : {}),
      ...(git.head ? { head: git.head } : {}),
      session_id: session,
      written,
      seal,
    },
    path: project.layout.narrative,
    template,
    why,
  }
}
