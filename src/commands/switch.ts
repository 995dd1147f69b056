/**
 * `bookmark off` / `bookmark on`: the capture switch of a project or of one session, kept in the project's
 * config.json in its folder of the bookmark home (never in the project's `.bookmark/`, which a clone can bring).
 */
import { resolve } from 'node:path'
import { type Resolved, captureOff, resolveConfig } from '../config/resolve.js'
import { offLine } from '../config/switch.js'
import { findProjectRoot } from '../repo/root.js'
import { type Deps, isHomeScope } from '../shared/deps.js'
import { InputError } from '../shared/errors.js'

export interface SwitchResult {
  projectRoot: string
  /** The project's config.json that holds the switch. */
  file: string
  state: 'on' | 'off'
  sessionId?: string
  /** What still keeps capture off after this change, when something does. */
  stillOff?: string
}

export async function switchCapture(want: 'on' | 'off', opts: { cwd?: string; session?: string }, cwd: string, deps: Deps): Promise<SwitchResult> {
  const { root } = await findProjectRoot(resolve(opts.cwd ?? cwd), deps.env.CLAUDE_PROJECT_DIR)
  if (isHomeScope(root, deps.env))
    throw new InputError(
      `${root} is not a project: run this inside a project folder (or pass --cwd DIR); \`bookmark config --set disable=1\` switches every project off`,
    )
  if (opts.session !== undefined && opts.session.trim() === '') throw new InputError('--session expects a session id (as in `bookmark list`), got an empty one')
  // Writers only: the state folder (and the key) are made when missing, as `bookmark config --project` does.
  const [{ ensureState }, { editConfigFile }] = await Promise.all([import('../store/state-write.js'), import('../config/write.js')])
  const file = (await ensureState(deps.bookmarkHome, root)).config
  const session = opts.session?.trim()
  if (session !== undefined) await editConfigFile(file, want === 'off' ? { sessionOff: { id: session, at: deps.now().toISOString() } } : { sessionOn: session })
  else await editConfigFile(file, want === 'off' ? { set: { disable: 1 } } : { unset: ['disable'] })
  const after = await resolveConfig({ bookmarkHome: deps.bookmarkHome, projectRoot: root, env: deps.env })
  const by = captureOff(after, session)
  const result: SwitchResult = { projectRoot: root, file, state: want, ...(session !== undefined ? { sessionId: session } : {}) }
  // Turned on, but another layer still keeps it off: say so, or the user waits for captures that never come.
  if (want === 'on' && by !== undefined) result.stillOff = offLine(by)
  return result
}

export function switchText(r: SwitchResult): string {
  const what = r.sessionId !== undefined ? `session ${r.sessionId} in ${r.projectRoot}` : r.projectRoot
  const line = `Capture ${r.state} for ${what} (kept in ${r.file}).`
  return r.stillOff ? `${line} Still: ${r.stillOff}.` : line
}

/**
 * Why `bookmark snapshot` (and the MCP tool) write nothing while capture is off; undefined when they may. A manual
 * capture is explicit, but the MCP tool is the model's to call: the user's switch must hold against it, so only
 * the person at the command line can pass `--force`.
 */
export function snapshotRefusal(r: Resolved, sessionId: string | undefined, override = '--force captures once anyway'): string | undefined {
  const by = captureOff(r, sessionId)
  return by === undefined ? undefined : `${offLine(by)}; ${override}`
}
