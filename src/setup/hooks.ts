/**
 * Our four hook handlers as they go into a Claude Code settings file, and how to recognise them
 * (ours from this install, an older one, or a shell-form entry written by hand). Pure.
 */
import { isObject } from '../shared/json.js'

export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop'] as const
export type HookEvent = (typeof HOOK_EVENTS)[number]
export type HookName = 'restore' | 'check' | 'precompact' | 'stop'

/** Event -> the bookmark command it runs and its timeout in SECONDS (the unit Claude Code reads). */
export const OUR_HOOKS: Record<HookEvent, { hook: HookName; timeout: number }> = {
  SessionStart: { hook: 'restore', timeout: 15 },
  UserPromptSubmit: { hook: 'check', timeout: 15 },
  PreCompact: { hook: 'precompact', timeout: 60 },
  Stop: { hook: 'stop', timeout: 60 },
}

const HOOK_NAMES: readonly string[] = ['restore', 'check', 'precompact', 'stop']

/** How the hooks start bookmark: absolute paths of node and of this package's bin/bookmark.cjs. */
export interface Launch {
  node: string
  entry: string
}

export interface Handler {
  type: 'command'
  command: string
  args: [string, HookName]
  timeout: number
}

export function desiredHandler(event: HookEvent, launch: Launch): Handler {
  const { hook, timeout } = OUR_HOOKS[event]
  return { type: 'command', command: launch.node, args: [launch.entry, hook], timeout }
}

/** A matcher group with no matcher: it runs for every source / trigger of the event. */
export function desiredGroup(event: HookEvent, launch: Launch): { hooks: Handler[] } {
  return { hooks: [desiredHandler(event, launch)] }
}

const SHELL_FORM = /bookmark(?:\.c?js)?["']?\s+(restore|check|precompact|stop)(?=$|[\s"';&|)])/

/**
 * The bookmark command a handler runs, when the handler is ours: exec form with args[0] ending in
 * bin/bookmark.cjs (bin/bookmark.js in older installs) and args[1] a hook name, or a shell-form command
 * containing `bookmark.cjs <hook>`, `bookmark.js <hook>` or `bookmark <hook>` (older installs). Anything else is another tool's and is never touched.
 */
export function ourHookName(handler: unknown): HookName | undefined {
  if (!isObject(handler)) return undefined
  if (handler.type !== undefined && handler.type !== 'command') return undefined
  const args = handler.args
  if (Array.isArray(args)) {
    const [entry, hook] = args as unknown[]
    if (typeof entry === 'string' && /(^|[\\/])bin[\\/]bookmark\.c?js$/.test(entry) && typeof hook === 'string' && HOOK_NAMES.includes(hook)) return hook as HookName
    return undefined
  }
  if (typeof handler.command === 'string') {
    const m = SHELL_FORM.exec(handler.command)
    if (m) return m[1] as HookName
  }
  return undefined
}
