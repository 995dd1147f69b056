/**
 * Reading the narrative handoff (.bookmark/bookmark.context.md) and judging it: size, sections, template
 * text, identity, git tracking.
 */
import { lstat } from '../shared/fsp.js'
import { dirname } from 'node:path'
import { isSymlink } from '../store/fs.js'
import { readStoreFile } from '../store/read.js'
import { type Identity, type IdentityVerdict, checkIdentity, parseNarrative } from '../restore/identity.js'
import { type GitInfo, isTrackedByGit } from '../repo/git.js'
import { NARRATIVE_REL } from '../store/layout.js'
import { readKey } from '../trust/key.js'
import type { NarrativeState } from './freshness.js'

/** The narrative is read whole, so it is capped: a handoff is a page, not a transcript. */
export const NARRATIVE_MAX_BYTES = 512 * 1024

export interface NarrativeRead {
  path: string
  state: NarrativeState
  text?: string
  body?: string
  identity?: Identity
  verdict?: IdentityVerdict
  parseError?: string
  mtimeMs?: number
}

/** Lines of the template that a model should have replaced. */
const TEMPLATE_LINES = [
  'What the user asked for, in their words, and what "done" means.',
  'What is finished (and committed or not), what is half-done.',
  'Each decision with the why: what was chosen, what was rejected, and the reason.',
  'Bugs, questions for the user, follow-ups, anything left unverified.',
  'The single next action a fresh session should take.',
  'The files that matter for the next step, one line each with their role.',
]

export function isTemplateOnly(body: string): boolean {
  if (body.includes('{{')) return true
  const kept = TEMPLATE_LINES.filter((l) => body.includes(l)).length
  return kept >= 3
}

/**
 * Reads and judges the handoff of `root`. Its identity counts only with a valid seal (trust/seal.ts) under the
 * key of `bookmarkHome`: without one the verdict is `unsealed` and nothing of the file is to be shown.
 */
export async function readNarrative(path: string, root: string, here: GitInfo, bookmarkHome: string, checkTracked = true): Promise<NarrativeRead> {
  const empty: NarrativeState = { exists: false, bytes: 0, identityOk: false, hasSection: false, templateOnly: false, tracked: false }
  let size: number
  let mtimeMs: number
  // A store folder that is a symlink could lead anywhere: nothing in it is read.
  if (await isSymlink(dirname(path))) return { path, state: empty }
  try {
    const s = await lstat(path)
    if (!s.isFile()) return { path, state: empty } // a symlink, a FIFO or anything else is not our narrative
    size = s.size
    mtimeMs = s.mtimeMs
  } catch {
    return { path, state: empty }
  }
  if (size > NARRATIVE_MAX_BYTES)
    return { path, mtimeMs, state: { ...empty, exists: true, bytes: size }, parseError: `larger than ${NARRATIVE_MAX_BYTES} bytes` }
  let text: string
  try {
    text = await readStoreFile(path)
  } catch {
    return { path, state: empty }
  }
  const parsed = parseNarrative(text)
  const tracked = checkTracked ? await isTrackedByGit(root, NARRATIVE_REL) : false
  const body = parsed.body
  const state: NarrativeState = {
    exists: true,
    bytes: Buffer.byteLength(text),
    identityOk: false,
    hasSection: /^## \S/m.test(body),
    templateOnly: isTemplateOnly(body),
    tracked,
  }
  if (!parsed.ok) return { path, state, text, body, parseError: parsed.reason, mtimeMs }
  const { hasValidSeal } = await import('../trust/seal.js')
  // The seal proves the project (its root is in it): the header's repo_path is only for people to read.
  const verdict: IdentityVerdict = hasValidSeal(await readKey(bookmarkHome), root, parsed.identity)
    ? checkIdentity({ ...parsed.identity, repo_path: root }, { root, ...here })
    : { kind: 'unsealed', reason: 'its identity header has no valid seal: it was not written for this project through your bookmark' }
  state.identityOk = verdict.kind === 'match'
  if (parsed.identity.written && Number.isFinite(Date.parse(parsed.identity.written))) state.written = parsed.identity.written
  return { path, state, text, body, identity: parsed.identity, verdict, mtimeMs }
}
