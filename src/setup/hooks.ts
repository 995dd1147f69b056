/**
 * Our four hook handlers as they go into a Claude Code settings file, and how to recognise them
 * (ours from this install, an older one, or a shell-form entry written by hand). Pure.
 */
import { GEMINI_EVENTS, HOOK_TABLE, type HookEvent, type HookName } from '../hooks/table.js'
import { isObject } from '../shared/json.js'

export const HOOK_EVENTS: readonly HookEvent[] = HOOK_TABLE.map((h) => h.event)
export type { HookEvent, HookName }

/** Event -> the bookmark command it runs and its timeout in SECONDS (the unit Claude Code reads). */
export const OUR_HOOKS = Object.fromEntries(HOOK_TABLE.map((h) => [h.event, { hook: h.name, timeout: h.timeout }])) as Record<
  HookEvent,
  { hook: HookName; timeout: number }
>

const HOOK_NAMES: readonly string[] = HOOK_TABLE.map((h) => h.name)

/**
 * `exec`: `command` + `args`, spawned without a shell (Claude Code 2.1.139 and later); `shell`: one command
 * line for `sh -c`, which every version runs (older ones ignore `args` and would run node alone).
 */
export type HookForm = 'exec' | 'shell'

/** How the hooks start bookmark: absolute paths of node and of this package's bin/bookmark.cjs, and the form. */
export interface Launch {
  node: string
  entry: string
  /** Default `exec`. */
  form?: HookForm
  /**
   * Codex CLI: shell form only (its hooks have no `args`), the line ending in `--host codex`. Gemini CLI: the same,
   * ending in `--host gemini`, on Gemini's own events (GEMINI_EVENTS), named and with the timeout in milliseconds.
   */
  host?: 'codex' | 'gemini'
}

/** The events a host's settings wire, the hook each runs and its timeout in SECONDS. */
export function eventsOf(launch: Pick<Launch, 'host'>): readonly { event: string; hook: HookName; timeout: number }[] {
  return launch.host === 'gemini' ? GEMINI_EVENTS : HOOK_TABLE.map((h) => ({ event: h.event, hook: h.name, timeout: h.timeout }))
}

/** The name a Gemini handler of ours has: Gemini dedupes by `name:command` and `hooksConfig.disabled` lists names. */
export const geminiHookName = (hook: HookName): string => `bookmark-${hook}`

/**
 * What node runs (`node -e GUARD <entry> <hook>`): the entry only while it exists, so a package removed
 * without `bookmark uninstall` leaves hooks that exit 0 silently instead of failing every session. It
 * lives in the settings entry itself, not in a file, so there is nothing left for a user to delete
 * that could break it. No `$`, no `'`: it survives both forms' quoting and ${VAR} substitution.
 * It runs the entry as a script (bin/bookmark.cjs says why), not through `require`.
 */
export const GUARD = 'const f=process.argv[1],s=require("fs");s.existsSync(f)&&require("vm").runInThisContext(s.readFileSync(f,"utf8"),f)'

export interface ExecHandler {
  type: 'command'
  command: string
  args: string[]
  timeout: number
}

export interface ShellHandler {
  type: 'command'
  command: string
  timeout: number
}

export interface NamedHandler {
  name: string
  type: 'command'
  command: string
  timeout: number
}

export type Handler = ExecHandler | ShellHandler | NamedHandler

/** A word for `sh -c` (and Git Bash): single-quoted unless it is plainly safe. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

export function desiredHandler(event: string, launch: Launch): Handler {
  const found = eventsOf(launch).find((e) => e.event === event)
  if (!found) throw new Error(`no bookmark hook runs on ${event}`)
  const { hook, timeout } = found
  if (launch.form === 'shell' || launch.host !== undefined) {
    const words = [launch.node, '-e', GUARD, launch.entry].map(shellQuote).concat(hook, launch.host !== undefined ? ['--host', launch.host] : [])
    if (launch.host === 'gemini') return { name: geminiHookName(hook), type: 'command', command: words.join(' '), timeout: timeout * 1000 }
    return { type: 'command', command: words.join(' '), timeout }
  }
  return { type: 'command', command: launch.node, args: ['-e', GUARD, launch.entry, hook], timeout }
}

/**
 * A matcher group with no matcher: it runs for every source / trigger of the event. Gemini's groups say `*`, the
 * form verified with 0.61.
 */
export function desiredGroup(event: string, launch: Launch): { matcher?: string; hooks: Handler[] } {
  return launch.host === 'gemini' ? { matcher: '*', hooks: [desiredHandler(event, launch)] } : { hooks: [desiredHandler(event, launch)] }
}

const SHELL_FORM = /bookmark(?:\.cjs)?["']?\s+(restore|check|precompact|stop)(?=$|[\s"';&|)])/
const ENTRY = /(^|[\\/])bin[\\/]bookmark\.cjs$/

/**
 * The bookmark command a handler runs, when the handler is ours: exec form with args `[entry, hook]`
 * (written by hand) or `['-e', code, entry, hook]`, entry ending in bin/bookmark.cjs, or a shell-form
 * command containing `bookmark.cjs <hook>` or `bookmark <hook>`. Anything else is another tool's and is never touched.
 */
export function ourHookName(handler: unknown): HookName | undefined {
  if (!isObject(handler)) return undefined
  if (handler.type !== undefined && handler.type !== 'command') return undefined
  const args = handler.args
  if (Array.isArray(args)) {
    const words = args.length === 4 && args[0] === '-e' ? args.slice(2) : args
    const [entry, hook] = words as unknown[]
    if (words.length === 2 && typeof entry === 'string' && ENTRY.test(entry) && typeof hook === 'string' && HOOK_NAMES.includes(hook)) return hook as HookName
    return undefined
  }
  if (typeof handler.command === 'string') {
    const m = SHELL_FORM.exec(handler.command)
    if (m) return m[1] as HookName
  }
  return undefined
}

/** Words of a POSIX shell command line: quotes ('…', "…" with \ escapes) and backslashes, no expansion. */
export function shellWords(command: string): string[] {
  const words: string[] = []
  let word: string | undefined
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1)
      word = (word ?? '') + command.slice(i + 1, end < 0 ? undefined : end)
      i = end < 0 ? command.length : end
    } else if (c === '"') {
      word ??= ''
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && /["\\$`]/.test(command[i + 1] ?? '')) i++
        word += command[i]
      }
    } else if (c === '\\' && i + 1 < command.length) {
      word = (word ?? '') + command[++i]
    } else word = (word ?? '') + c
  }
  if (word !== undefined) words.push(word)
  return words
}

/** The bin/bookmark.cjs a handler of ours starts (exec or shell form), when it names one. */
export function hookEntry(handler: { command?: string; args?: string[] }): string | undefined {
  const words = handler.args ? [handler.command ?? '', ...handler.args] : shellWords(handler.command ?? '')
  return words.find((w) => ENTRY.test(w))
}
