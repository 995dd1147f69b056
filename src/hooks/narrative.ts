/**
 * The narrative as the hooks see it: read it, judge it against the session's work, and build the request
 * that asks the model for a new one.
 */
import { readFile } from '../shared/fsp.js'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Config } from '../config/keys.js'
import { type Freshness, type NarrativeState, type SessionHooks, type Work, type WorkClock, narrativeFreshness, workSinceClock } from '../narrative/freshness.js'
import type { NarrativeRequest } from '../narrative/prompt.js'
import { isObject } from '../shared/json.js'
import { type GitInfo, readGitInfo } from '../store/git.js'
import { NARRATIVE_STATE, projectLayout } from '../store/layout.js'
import { baseKey, recall, remember } from './remembered.js'

/** The handoff template that ships with the package (a function: resolved only when a request is made). */
export const narrativeTemplate = (): string => fileURLToPath(new URL('../../templates/bookmark.context.md', import.meta.url))

export interface NarrativeView {
  state: NarrativeState
  git: GitInfo
  freshness: Freshness
  /** Work since the narrative was written (the whole session when there is no usable one). */
  work: Work
}

const NARRATIVE_STATE_VERSION = 1

function isNarrativeState(v: unknown): v is NarrativeState {
  return isObject(v) && typeof v.exists === 'boolean' && typeof v.bytes === 'number' && typeof v.identityOk === 'boolean' && typeof v.hasSection === 'boolean' && typeof v.templateOnly === 'boolean' && typeof v.tracked === 'boolean'
}

/**
 * How the handoff stands: judged from the file (narrative/file.ts), or taken from the judgement a capturing
 * hook kept (`remember`) while the handoff, git's branch, HEAD and index are as they were then
 * (remembered.ts): a Stop with nothing new then reads no handoff and loads no parser.
 */
async function narrativeState(root: string, git: GitInfo, remember_: boolean): Promise<NarrativeState> {
  const key = await baseKey(root, git)
  // No handoff: nothing to judge, and a key of absent files only could be forged by a planted file.
  const kept = key.narrative !== null
  const known = kept ? await recall(root, NARRATIVE_STATE, NARRATIVE_STATE_VERSION, key, isNarrativeState) : undefined
  if (known) return known
  const { readNarrative } = await import('../narrative/file.js')
  const { state } = await readNarrative(projectLayout(root).narrative, root, git)
  if (remember_ && kept) await remember(root, NARRATIVE_STATE, NARRATIVE_STATE_VERSION, key, state).catch(() => undefined)
  return state
}

/** `remember`: keep the judgement for the next hook (only hooks that wrote a capture do; one with nothing new writes nothing). */
export async function viewNarrative(root: string, work: WorkClock, hooks: SessionHooks, config: Config, now: Date, remember_ = false): Promise<NarrativeView> {
  const git = await readGitInfo(root)
  const state = await narrativeState(root, git, remember_)
  const since = state.identityOk ? state.written : undefined
  const done = workSinceClock(work, since)
  const freshness = narrativeFreshness(state, hooks, done, { requestsThreshold: config.narrativeRequests, refreshMinutes: config.narrativeRefreshMinutes, nowMs: now.getTime() })
  return { state, git, work: done, freshness }
}

export async function narrativeRequest(root: string, git: GitInfo, sessionId: string, now: Date, why: string): Promise<NarrativeRequest> {
  let template: string
  try {
    template = await readFile(narrativeTemplate(), 'utf8')
  } catch {
    template = '## Task\n\n## Progress\n\n## Decisions\n\n## Open items\n\n## Next step\n\n## Files\n'
  }
  return {
    identity: {
      scope: 'repo',
      project: basename(root),
      repo_path: root,
      ...(git.branch ? { branch: git.branch } : {}),
      ...(git.head ? { head: git.head } : {}),
      session_id: sessionId,
      written: now.toISOString(),
    },
    path: projectLayout(root).narrative,
    template,
    why,
  }
}
