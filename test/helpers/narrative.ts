/**
 * Handoff headers as the Stop hook hands them out: with the keyed seal (src/trust/seal.ts) that this sandbox's
 * bookmark home makes for the project. A header without one is what a clone could ship: never loaded.
 */
import { execFileSync } from 'node:child_process'
import { ensureKey } from '../../src/trust/make-key.js'
import { narrativeSeal } from '../../src/trust/seal.js'

export type HeaderFields = Record<string, string>

/** `fields` with the seal of `root` under the key of `bookmarkHome` (made when the home has none yet). */
export async function sealedFields(bookmarkHome: string, root: string, fields: HeaderFields): Promise<HeaderFields> {
  const key = await ensureKey(bookmarkHome)
  return { ...fields, seal: narrativeSeal(key, root, { session_id: fields.session_id ?? '', written: fields.written ?? '' }) }
}

export function identityHeader(fields: HeaderFields): string {
  return `<!-- BOOKMARK_IDENTITY\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n-->`
}

/** The sealed header block of `root`, ready to start a handoff file. */
export async function sealedHeader(bookmarkHome: string, root: string, fields: HeaderFields): Promise<string> {
  return identityHeader(await sealedFields(bookmarkHome, root, fields))
}

/** The sealed header of a handoff written in the git repository `root` on `main` at its HEAD (project `proj`). */
export async function repoHeader(bookmarkHome: string, root: string, sessionId: string, written: string): Promise<string> {
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
  return sealedHeader(bookmarkHome, root, { scope: 'repo', project: 'proj', repo_path: root, branch: 'main', head, session_id: sessionId, written })
}

/** The project's machine-local folder in the sandbox's bookmark home (cursors, sessions, prepared answers, errors.log). */
export async function stateDir(bookmarkHome: string, root: string): Promise<string> {
  const { stateLayout } = await import('../../src/store/layout.js')
  const { projectId } = await import('../../src/trust/key.js')
  return stateLayout(bookmarkHome, projectId(await ensureKey(bookmarkHome), root)).dir
}
