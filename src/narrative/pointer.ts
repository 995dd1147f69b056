/**
 * The home pointer (~/.bookmark/bookmark.context.md, `scope: home`): which project a session started
 * outside any project should continue. It is followed one level, and only to the narrative of a project
 * in the registry: never to any other path.
 */
import { basename, join } from 'node:path'
import { stateOf } from '../store/state.js'
import { isDirectory } from '../store/fs.js'
import { parseNarrative, renderIdentity } from '../restore/identity.js'
import { readStoreFile } from '../store/read.js'
import { homeLayout, projectLayout } from '../store/layout.js'
import { readRegistry } from '../store/registry.js'
import { oneLine } from '../shared/text.js'

export interface PointerInfo {
  projectRoot: string
  project: string
  branch?: string
  head?: string
  sessionId?: string
  task?: string | null
}

export async function writeHomePointer(bookmarkHome: string, info: PointerInfo, now: Date): Promise<void> {
  const home = homeLayout(bookmarkHome)
  const state = await stateOf(bookmarkHome, info.projectRoot)
  const [{ ensureDir, writeText }, { redact }] = await Promise.all([import('../store/files.js'), import('../redact/secrets.js')]) // the writers only when writing
  await ensureDir(home.dir)
  const header = renderIdentity({
    scope: 'home',
    project: info.project,
    repo_path: info.projectRoot,
    ...(info.branch ? { branch: info.branch } : {}),
    ...(info.head ? { head: info.head } : {}),
    ...(info.sessionId ? { session_id: info.sessionId } : {}),
    written: now.toISOString(),
    points_to_canonical: projectLayout(info.projectRoot).narrative,
    // Where its prepared answer lives: found again even when the path above is stored redacted.
    ...(state ? { project_id: basename(state.dir) } : {}),
  })
  // Names come from outside (a folder can be named with a line break): each stays on its line.
  const flat = (v: string, max: number): string => oneLine(v.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' '), max)
  const body = [
    `# Last active project: ${flat(info.project, 200)}`,
    '',
    `The most recent work was in ${flat(info.projectRoot, 500)}.`,
    ...(info.task ? ['', `Its latest request: ${flat(info.task, 300)}`] : []),
    '',
  ].join('\n')
  const text = redact(`${header}${body}`)
  // Rewritten only when it says something new: every capturing Stop asks, and mostly only the time moved.
  const current = await readHomePointer(bookmarkHome)
  if (current !== undefined && withoutWritten(current) === withoutWritten(text)) return
  await writeText(home.pointer, text, { redacted: true })
}

/** A pointer's text without its `written:` line (the only one that changes when it points to the same place). */
function withoutWritten(text: string): string {
  return text.replace(/^written: .*\n/m, '')
}

export type PointerTarget = { ok: true; projectRoot: string; narrativePath: string } | { ok: false; reason: string; projectId?: string; project?: string }

/**
 * Where a pointer leads: only `<project>/.bookmark/bookmark.context.md` of a project in the registry.
 * Anything else (a path outside any project, an unregistered project, a file that is itself a pointer)
 * is refused with the reason.
 */
export async function pointerTarget(pointerText: string, bookmarkHome: string): Promise<PointerTarget> {
  const parsed = parseNarrative(pointerText)
  if (!parsed.ok) return { ok: false, reason: `the home pointer is unreadable: ${parsed.reason}` }
  const id = parsed.identity
  if (id.scope !== 'home') return { ok: false, reason: 'the home pointer does not have scope: home' }
  const target = id.points_to_canonical
  if (!target) return { ok: false, reason: 'the home pointer names no points_to_canonical' }
  const { registry } = await readRegistry(bookmarkHome)
  const projects = new Set(registry.entries.map((e) => e.project))
  for (const root of projects) {
    // A root stored redacted names no folder: found by project_id below instead.
    if (projectLayout(root).narrative === target && (await isDirectory(root))) return { ok: true, projectRoot: root, narrativePath: target }
  }
  const projectId = id.project_id !== undefined && /^[0-9a-f]{32}$/.test(id.project_id) ? id.project_id : undefined
  return {
    ok: false,
    reason: 'the home pointer does not lead to the narrative of a registered project; it is not followed',
    ...(projectId ? { projectId } : {}),
    ...(id.project ? { project: id.project } : {}),
  }
}

export async function readHomePointer(bookmarkHome: string): Promise<string | undefined> {
  try {
    return await readStoreFile(join(bookmarkHome, 'bookmark.context.md'))
  } catch {
    return undefined
  }
}
