/**
 * The narrative handoff of a project's store as the explorer shows it: only when its seal proves it was written for
 * that project through this user's bookmark (narrative/file.ts), redacted, and dated so each session can say
 * whether the handoff is fresh (written after the session's last activity).
 */
import { readNarrative } from '../narrative/file.js'
import { redact } from '../redact/secrets.js'
import { readGitInfo } from '../repo/git.js'
import { projectLayout } from '../store/layout.js'
import { readRegistry } from '../store/registry.js'

export interface Handoff {
  /** `sealed`: shown; `unsealed`: there, but not proven ours (not shown); `none`: no handoff. */
  status: 'sealed' | 'unsealed' | 'none'
  written: string | null
  text?: string
}

const TEXT_CAP = 20_000

/** A registry root and an events-log project folder belong together when one holds the other. */
export const sameProject = (root: string, folder: string): boolean =>
  root === folder || folder.startsWith(`${root.replace(/\/+$/, '')}/`) || root.startsWith(`${folder.replace(/\/+$/, '')}/`)

/** The store root the registry knows for an events-log project folder: the longest one that matches. */
export async function storeRootOf(bookmarkHome: string, folder: string): Promise<string | undefined> {
  const { registry } = await readRegistry(bookmarkHome)
  const roots = [...new Set(registry.entries.map((e) => e.project))].filter((r) => sameProject(r, folder))
  return roots.sort((a, b) => b.length - a.length)[0]
}

export async function handoffOf(bookmarkHome: string, folder: string): Promise<Handoff> {
  const root = await storeRootOf(bookmarkHome, folder)
  if (root === undefined) return { status: 'none', written: null }
  const read = await readNarrative(projectLayout(root).narrative, root, await readGitInfo(root), bookmarkHome, false).catch(() => undefined)
  if (!read || !read.state.exists) return { status: 'none', written: null }
  if (!read.state.identityOk || read.body === undefined) return { status: 'unsealed', written: null }
  const text = redact(read.body.trim())
  return { status: 'sealed', written: read.state.written ?? null, text: text.length > TEXT_CAP ? `${text.slice(0, TEXT_CAP)}…` : text }
}

/** Fresh: written at or after the session's last event. */
export function freshFor(h: Handoff, last: number): boolean | null {
  if (h.status !== 'sealed' || h.written === null) return null
  return Date.parse(h.written) >= last
}
