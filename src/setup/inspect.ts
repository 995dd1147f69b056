/**
 * Which of our hooks a settings file wires, and whether their commands would start (for
 * `bookmark doctor` and for setup's notes). Reads only.
 */
import { constants } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { isAbsolute } from 'node:path'
import { isFileWith, onPath } from '../shared/which.js'
import { HOOK_EVENTS, type HookEvent, OUR_HOOKS, shellWords } from './hooks.js'
import { JsonParseError, membersNamed, parseJson, toValue } from './jsonedit.js'
import { findInEvent, hooksObject } from './plan.js'

export type { HookEvent } from './hooks.js'

export interface HookStatus {
  wired: boolean
  command?: string
  args?: string[]
  timeout?: number
  /** The command (and the bookmark entry it names) exist and are runnable. */
  resolves: boolean
}

export interface SettingsInspection {
  path: string
  exists: boolean
  /** Set when the file is not valid JSON: `line L, column C: reason`. */
  parseError?: string
  events: Record<HookEvent, HookStatus>
}

/** An executable: an absolute path, or a name found on PATH. */
async function executableResolves(cmd: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (cmd === '' || cmd.includes('${')) return false
  if (isAbsolute(cmd)) return isFileWith(cmd, constants.X_OK)
  if (cmd.includes('/')) return false // relative to an unknown working directory
  return (await onPath(cmd, env)) !== undefined
}

async function resolves(command: string | undefined, args: string[] | undefined, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (command === undefined) return false
  const words = args ? [command, ...args] : shellWords(command)
  const [exe, ...rest] = words
  if (exe === undefined || !(await executableResolves(exe, env))) return false
  for (const w of rest) {
    if (/bookmark\.c?js$/.test(w) && (w.includes('${') || !isAbsolute(w) || !(await isFileWith(w, constants.R_OK)))) return false
  }
  return true
}

const none = (): Record<HookEvent, HookStatus> =>
  Object.fromEntries(HOOK_EVENTS.map((e) => [e, { wired: false, resolves: false }])) as Record<HookEvent, HookStatus>

/** What a settings file says about our four hooks. Never throws for a missing or broken file. */
export async function inspectSettings(path: string, env: NodeJS.ProcessEnv = process.env): Promise<SettingsInspection> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? { path, exists: false, events: none() } : { path, exists: true, parseError: (e as Error).message, events: none() }
  }
  let root
  try {
    root = parseJson(text)
  } catch (e) {
    return { path, exists: true, parseError: e instanceof JsonParseError ? e.message : String(e), events: none() }
  }
  const events = none()
  const hooks = root.kind === 'object' ? hooksObject(root) : undefined
  if (!hooks) return { path, exists: true, events }
  for (const event of HOOK_EVENTS) {
    const found = membersNamed(hooks, event)
      .flatMap(findInEvent)
      .find((f) => f.hook === OUR_HOOKS[event].hook)
    if (!found) continue
    const h = toValue(found.handler) as Record<string, unknown>
    const command = typeof h.command === 'string' ? h.command : undefined
    const args = Array.isArray(h.args) && h.args.every((a) => typeof a === 'string') ? (h.args as string[]) : undefined
    const timeout = typeof h.timeout === 'number' ? h.timeout : undefined
    events[event] = {
      wired: true,
      ...(command !== undefined ? { command } : {}),
      ...(args ? { args } : {}),
      ...(timeout !== undefined ? { timeout } : {}),
      resolves: await resolves(command, args, env),
    }
  }
  return { path, exists: true, events }
}
