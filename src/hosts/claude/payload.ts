/**
 * The hook payload Claude Code sends on stdin, validated where it enters: unknown fields are ignored,
 * fields of the wrong type are dropped with a note.
 */
import { isObject } from '../../shared/json.js'
import type { HostEvent } from '../host.js'

export interface HookPayload {
  session_id?: string
  transcript_path?: string
  cwd?: string
  hook_event_name?: string
  /** SessionStart: startup | resume | clear | compact | fork */
  source?: string
  /** Stop */
  stop_hook_active?: boolean
  last_assistant_message?: string
  /** PreCompact */
  trigger?: string
  /** UserPromptSubmit */
  prompt?: string
}

const STRING_FIELDS = ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'source', 'last_assistant_message', 'trigger', 'prompt'] as const

export interface ParsedPayload {
  payload: HookPayload
  notes: string[]
}

/** Parses stdin text; an empty, invalid or truncated payload yields what could be recovered, never throws. */
export function parsePayload(text: string, truncated: boolean): ParsedPayload {
  const notes: string[] = []
  const trimmed = text.trim()
  if (trimmed === '') return { payload: {}, notes: ['empty hook payload on stdin'] }
  let raw: unknown
  try {
    raw = JSON.parse(trimmed)
  } catch (e) {
    notes.push(truncated ? 'hook payload too large: only its head was read' : `hook payload is not JSON (${whyNotJson(trimmed, (e as Error).message)})`)
    return { payload: salvage(trimmed), notes }
  }
  if (!isObject(raw))
    return { payload: {}, notes: [`hook payload is not a JSON object: got ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : `a ${typeof raw}`}`] }
  const payload: HookPayload = {}
  for (const key of STRING_FIELDS) {
    const v = raw[key]
    if (v === undefined || v === null) continue
    if (typeof v === 'string') payload[key] = v
    else notes.push(`payload field ${key} ignored: expected a string, got ${Array.isArray(v) ? 'array' : typeof v}`)
  }
  if (raw.stop_hook_active !== undefined) {
    if (typeof raw.stop_hook_active === 'boolean') payload.stop_hook_active = raw.stop_hook_active
    else notes.push('payload field stop_hook_active ignored: expected a boolean')
  }
  return { payload, notes }
}

/** The payload in the words every host shares (host.ts). */
export function readClaudePayload(text: string, truncated: boolean): { event: HostEvent; notes: string[] } {
  const { payload: p, notes } = parsePayload(text, truncated)
  const event: HostEvent = {}
  if (p.session_id !== undefined) event.sessionId = p.session_id
  if (p.transcript_path !== undefined) event.transcript = p.transcript_path
  if (p.cwd !== undefined) event.cwd = p.cwd
  if (p.hook_event_name !== undefined) event.eventName = p.hook_event_name
  if (p.source !== undefined) event.source = p.source
  if (p.stop_hook_active !== undefined) event.stopHookActive = p.stop_hook_active
  if (p.last_assistant_message !== undefined) event.lastAssistantMessage = p.last_assistant_message
  if (p.trigger !== undefined) event.trigger = p.trigger
  if (p.prompt !== undefined) event.prompt = p.prompt
  return { event, notes }
}

/**
 * What was wrong with a payload that is not JSON, by length and position only. JSON.parse's own message quotes
 * the payload's first characters, and a payload that starts with a token would put it on stderr.
 */
function whyNotJson(text: string, message: string): string {
  const at = /at position (\d+)/.exec(message)?.[1]
  const where =
    at !== undefined && Number(at) < text.length
      ? `invalid at character ${Number(at) + 1}`
      : at !== undefined || /end of JSON input/.test(message)
        ? 'it ends before its JSON does'
        : !text.startsWith('{')
          ? 'it does not start with {'
          : 'an unexpected character inside it'
  return `${text.length} characters; ${where}`
}

/** From a payload too big or broken to parse, the three fields a capture needs, when they are plain. */
function salvage(text: string): HookPayload {
  const head = text.slice(0, 65_536)
  const out: HookPayload = {}
  for (const key of ['session_id', 'transcript_path', 'cwd', 'hook_event_name'] as const) {
    const m = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){1,4096})"`).exec(head)
    if (!m) continue
    try {
      out[key] = JSON.parse(`"${m[1]}"`) as string
    } catch {
      // not a clean string: leave it out
    }
  }
  const active = /"stop_hook_active"\s*:\s*(true|false)/.exec(head)
  if (active) out.stop_hook_active = active[1] === 'true'
  return out
}

/**
 * Whether nobody is at the keyboard: `claude -p`, the Agent SDK, CI. Read from the hook's environment, because
 * Claude Code 2.1.332 sends the same Stop payload fields either way (docs/HEADLESS.md has the evidence), and a
 * hook never has a terminal to test. `CLAUDE_CODE_SESSION_ATTENDED` is the binary's own verdict ("0" under -p
 * and SDK, "1" interactive, also in the IDE and desktop apps); `CLAUDE_CODE_ENTRYPOINT` (`sdk-cli`, `sdk-ts`,
 * `sdk-py` …) stands in when a host does not set it. Neither set: treated as attended, the behaviour before.
 */
export function isHeadless(env: NodeJS.ProcessEnv): boolean {
  const attended = env.CLAUDE_CODE_SESSION_ATTENDED?.trim()
  if (attended === '0') return true
  if (attended === '1') return false
  return env.CLAUDE_CODE_ENTRYPOINT?.trim().startsWith('sdk-') === true
}
