/**
 * The narrative as the hooks see it: read it, judge it against the session's work, and build the request
 * that asks the model for a new one.
 */
import { readFile } from '../shared/fsp.js'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Config } from '../config/keys.js'
import { type Freshness, type SessionHooks, type Work, type WorkClock, narrativeFreshness, workSinceClock } from '../narrative/freshness.js'
import { type NarrativeRead, readNarrative } from '../narrative/file.js'
import type { NarrativeRequest } from '../narrative/prompt.js'
import { type GitInfo, readGitInfo } from '../store/git.js'
import { projectLayout } from '../store/layout.js'

/** The handoff template that ships with the package (a function: resolved only when a request is made). */
export const narrativeTemplate = (): string => fileURLToPath(new URL('../../templates/bookmark.context.md', import.meta.url))

export interface NarrativeView {
  read: NarrativeRead
  git: GitInfo
  freshness: Freshness
  /** Work since the narrative was written (the whole session when there is no usable one). */
  work: Work
}

export async function viewNarrative(root: string, work: WorkClock, hooks: SessionHooks, config: Config, now: Date): Promise<NarrativeView> {
  const git = await readGitInfo(root)
  const read = await readNarrative(projectLayout(root).narrative, root, git)
  const since = read.state.identityOk ? read.state.written : undefined
  const done = workSinceClock(work, since)
  const freshness = narrativeFreshness(read.state, hooks, done, { requestsThreshold: config.narrativeRequests, refreshMinutes: config.narrativeRefreshMinutes, nowMs: now.getTime() })
  return { read, git, work: done, freshness }
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
