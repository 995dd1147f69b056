/**
 * One line of a Claude Code transcript -> entries (the host's LineParser). Pure: no I/O, no clock.
 * Dispatches on `type`, ignores unknown types and fields, never throws.
 */
import { type Json, isObject, str } from '../../shared/json.js'
import type {
  AssistantBlock,
  AssistantEntry,
  EntryBase,
  NoteKind,
  OtherEntry,
  ParsedLine,
  TeamReport,
  ToolResultEntry,
  TranscriptEntry,
  Usage,
} from '../../transcript/types.js'
import { BOOKMARK_FEEDBACK, RESULT_TEXT_CAP } from '../../transcript/types.js'
import { SKIPPED, jsonLineParser } from '../../transcript/json-line.js'

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0
}

export const parseLine = jsonLineParser((record, line) => parseRecord(record, line))

/*
 * Entries are built as object literals that name every field, in one order, with `undefined` for what a line
 * lacks: every entry of a kind then has one shape. Spreading an envelope and adding the optional fields one by
 * one made a shape per combination, and building those took most of the parse time after JSON.parse itself.
 */

function envelope(r: Json, line: number): EntryBase {
  return {
    line,
    sidechain: r.isSidechain === true,
    uuid: str(r.uuid),
    timestamp: str(r.timestamp),
    cwd: str(r.cwd),
    gitBranch: str(r.gitBranch),
    version: str(r.version),
  }
}

function otherEntry(b: EntryBase, type: string): OtherEntry {
  return {
    line: b.line,
    sidechain: b.sidechain,
    uuid: b.uuid,
    timestamp: b.timestamp,
    cwd: b.cwd,
    gitBranch: b.gitBranch,
    version: b.version,
    kind: 'other',
    type,
  }
}

function noteEntry(b: EntryBase, note: NoteKind, reports?: TeamReport[]): TranscriptEntry {
  return {
    line: b.line,
    sidechain: b.sidechain,
    uuid: b.uuid,
    timestamp: b.timestamp,
    cwd: b.cwd,
    gitBranch: b.gitBranch,
    version: b.version,
    kind: 'note',
    note,
    ...(reports !== undefined && reports.length > 0 ? { reports } : {}),
  }
}

function assistantEntry(
  b: EntryBase,
  block: AssistantBlock,
  apiError: boolean,
  messageId: string | undefined,
  model: string | undefined,
  usage: Usage | undefined,
): AssistantEntry {
  return {
    line: b.line,
    sidechain: b.sidechain,
    uuid: b.uuid,
    timestamp: b.timestamp,
    cwd: b.cwd,
    gitBranch: b.gitBranch,
    version: b.version,
    kind: 'assistant',
    block,
    apiError,
    messageId,
    model,
    usage,
  }
}

function toolResultEntry(b: EntryBase, toolUseId: string, isError: boolean, text: string, result: unknown): ToolResultEntry {
  return {
    line: b.line,
    sidechain: b.sidechain,
    uuid: b.uuid,
    timestamp: b.timestamp,
    cwd: b.cwd,
    gitBranch: b.gitBranch,
    version: b.version,
    kind: 'tool_result',
    toolUseId,
    isError,
    text,
    result,
  }
}

function parseRecord(r: Json, line: number): ParsedLine {
  const type = str(r.type)
  if (type === undefined) return SKIPPED
  const base = envelope(r, line)
  switch (type) {
    case 'user':
      return parseUser(r, base)
    case 'assistant':
      return parseAssistant(r, base)
    case 'system':
      return parseSystem(r, base)
    case 'summary': {
      const title = str(r.summary)
      return { ok: true, entries: title ? [{ ...base, kind: 'title', title, source: 'summary' }] : [] }
    }
    case 'custom-title':
    case 'ai-title': {
      const title = str(r.customTitle) ?? str(r.aiTitle) ?? str(r.title)
      const source = type === 'custom-title' ? 'custom-title' : 'ai-title'
      return { ok: true, entries: title ? [{ ...base, kind: 'title', title, source }] : [] }
    }
    case 'last-prompt': {
      const lp = str(r.lastPrompt)
      return { ok: true, entries: lp ? [{ ...base, kind: 'last_prompt', text: lp }] : [] }
    }
    case 'pr-link': {
      const url = str(r.prUrl)
      if (!url) return { ok: true, entries: [] }
      const entry: TranscriptEntry = { ...base, kind: 'pr_link', url }
      if (typeof r.prNumber === 'number') entry.number = r.prNumber
      return { ok: true, entries: [entry] }
    }
    case 'progress':
      return parseProgress(r, base)
    default:
      return { ok: true, entries: [otherEntry(base, type)] }
  }
}

/**
 * `progress` records (2.1.x) embed a subagent's messages in `data.message` (`agent_progress`): parsed as
 * sidechain entries, since the subagent's tool calls change files and the shared task list.
 */
function parseProgress(r: Json, base: EntryBase): ParsedLine {
  const data = isObject(r.data) ? r.data : undefined
  const embedded = data && data.type === 'agent_progress' && isObject(data.message) ? data.message : undefined
  if (!embedded || (embedded.type !== 'user' && embedded.type !== 'assistant')) {
    return { ok: true, entries: [otherEntry(base, data && typeof data.type === 'string' ? `progress/${data.type}` : 'progress')] }
  }
  const inner: EntryBase = {
    ...base,
    sidechain: true,
    uuid: str(embedded.uuid) ?? base.uuid,
    timestamp: str(embedded.timestamp) ?? base.timestamp,
  }
  const parsed = embedded.type === 'user' ? parseUser(embedded, inner) : parseAssistant(embedded, inner)
  // Whatever the subagent said, it is never the user's own words.
  const entries = parsed.entries.map((e): TranscriptEntry => (e.kind === 'prompt' ? noteEntry(inner, 'other') : e))
  return { ok: true, entries }
}

function parseSystem(r: Json, base: EntryBase): ParsedLine {
  const subtype = str(r.subtype) ?? ''
  if (subtype === 'compact_boundary' || subtype === 'microcompact_boundary') {
    const micro = subtype === 'microcompact_boundary'
    const meta = isObject(r.compactMetadata) ? r.compactMetadata : isObject(r.microcompactMetadata) ? r.microcompactMetadata : {}
    const entry: TranscriptEntry = { ...base, kind: 'compact_boundary', micro }
    const trigger = str(meta.trigger)
    if (trigger !== undefined) entry.trigger = trigger
    if (typeof meta.preTokens === 'number') entry.preTokens = meta.preTokens
    return { ok: true, entries: [entry] }
  }
  return { ok: true, entries: [otherEntry(base, subtype ? `system/${subtype}` : 'system')] }
}

function parseAssistant(r: Json, base: EntryBase): ParsedLine {
  const message = r.message
  if (!isObject(message)) return SKIPPED
  const content = message.content
  const blocks: unknown[] = Array.isArray(content) ? content : typeof content === 'string' ? [{ type: 'text', text: content }] : []
  const usage = parseUsage(message.usage)
  const model = str(message.model)
  const messageId = str(message.id)
  const apiError = r.isApiErrorMessage === true || model === '<synthetic>'
  const entries: TranscriptEntry[] = []
  for (const raw of blocks) {
    const block = parseAssistantBlock(raw)
    if (block) entries.push(assistantEntry(base, block, apiError, messageId, model, usage))
  }
  return { ok: true, entries }
}

function parseAssistantBlock(raw: unknown): AssistantBlock | undefined {
  if (!isObject(raw)) return undefined
  switch (raw.type) {
    case 'text':
      return typeof raw.text === 'string' ? { type: 'text', text: raw.text } : undefined
    case 'thinking':
    case 'redacted_thinking':
      return { type: 'thinking' }
    case 'tool_use':
    case 'server_tool_use': {
      const id = str(raw.id)
      const name = str(raw.name)
      if (!id || !name) return undefined
      return { type: 'tool_use', id, name, input: isObject(raw.input) ? raw.input : {} }
    }
    default:
      return undefined
  }
}

function parseUsage(u: unknown): Usage | undefined {
  if (!isObject(u)) return undefined
  return {
    input: num(u.input_tokens),
    output: num(u.output_tokens),
    cacheRead: num(u.cache_read_input_tokens),
    cacheCreation: num(u.cache_creation_input_tokens),
  }
}

function parseUser(r: Json, base: EntryBase): ParsedLine {
  const message = r.message
  if (!isObject(message)) return SKIPPED
  const content = message.content
  if (r.isCompactSummary === true) return { ok: true, entries: [{ ...base, kind: 'compact_summary', text: resultText(content) }] }

  if (Array.isArray(content)) {
    const results = content.filter((b): b is Json => isObject(b) && b.type === 'tool_result')
    if (results.length > 0) {
      const entries: TranscriptEntry[] = []
      for (const b of results) {
        const toolUseId = str(b.tool_use_id)
        if (!toolUseId) continue
        // toolUseResult describes the line's (single) result; with several results it is ambiguous.
        entries.push(toolResultEntry(base, toolUseId, b.is_error === true, resultText(b.content), results.length === 1 ? r.toolUseResult : undefined))
      }
      // A message the user typed while the tool ran (2.1.x) rides on the result's line: it is their latest request.
      const typed = content
        .filter((b): b is Json => isObject(b) && b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text as string)
        .join('\n')
      if (typed.trim() !== '' && r.isMeta !== true) entries.push(classifyUserText(typed, base))
      return { ok: true, entries }
    }
  }

  const text = Array.isArray(content)
    ? content
        .filter((b): b is Json => isObject(b) && b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text as string)
        .join('\n')
    : typeof content === 'string'
      ? content
      : undefined
  if (text === undefined) return SKIPPED

  const origin = isObject(r.origin) ? str(r.origin.kind) : undefined
  if (r.isMeta === true) return note(base, text.startsWith('Stop hook feedback:') && text.includes(BOOKMARK_FEEDBACK) ? 'bookmark-feedback' : 'meta')
  if (origin !== undefined && origin !== 'human') return note(base, origin === 'task-notification' ? 'task-notification' : 'other')
  return { ok: true, entries: [classifyUserText(text, base)] }
}

function note(base: EntryBase, kind: NoteKind): ParsedLine {
  return { ok: true, entries: [noteEntry(base, kind)] }
}

/** Built-in slash commands that manage the session rather than ask for work. */
const HOUSEKEEPING_COMMANDS = new Set([
  'compact',
  'clear',
  'model',
  'resume',
  'config',
  'cost',
  'context',
  'login',
  'logout',
  'exit',
  'quit',
  'help',
  'status',
  'mcp',
  'hooks',
  'permissions',
  'memory',
  'doctor',
  'ide',
  'theme',
  'vim',
  'terminal-setup',
  'usage',
  'agents',
  'plugin',
  'plugins',
  'rewind',
  'export',
  'statusline',
  'add-dir',
  'bashes',
  'todos',
  'effort',
  'fast',
])

const COMPACT_SUMMARY_PREFIX = 'This session is being continued from a previous conversation'

/** Wrappers around typed text that Claude Code or the IDE add; removed before judging the text. */
const WRAPPER_BLOCKS = /<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics|user-prompt-submit-hook)>[\s\S]*?<\/\1>/g

export function classifyUserText(raw: string, base: EntryBase): TranscriptEntry {
  const text = raw.replace(WRAPPER_BLOCKS, '').trim()
  if (text === '') return noteEntry(base, 'hook-context')
  if (text.startsWith(COMPACT_SUMMARY_PREFIX)) return { ...base, kind: 'compact_summary', text }
  if (/^\[Request interrupted by user/.test(text)) return noteEntry(base, 'interrupt')
  if (/^<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr|bash-input|local-command-caveat)>/.test(text)) {
    return noteEntry(base, 'command-output')
  }
  if (text.startsWith('<task-notification>') || text.startsWith('<agent-notification>')) {
    return noteEntry(base, 'task-notification')
  }
  if (text.startsWith('<teammate-message')) {
    const lead = teamLeadText(text)
    if (lead !== undefined) return { ...base, kind: 'prompt', text: lead, from: 'team-lead' }
    return noteEntry(base, 'teammate', teamReports(text))
  }
  const command = /<command-name>\s*\/?([^<\s]+)\s*<\/command-name>/.exec(text)
  if (command && command[1]) {
    const name = command[1]
    if (HOUSEKEEPING_COMMANDS.has(name)) return noteEntry(base, 'command-output')
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? ''
    return { ...base, kind: 'prompt', text: args ? `/${name} ${args}` : `/${name}`, command: name }
  }
  return { ...base, kind: 'prompt', text }
}

const TEAMMATE_BLOCK = /<teammate-message\b([^>]*)>([\s\S]*?)<\/teammate-message>/g

/**
 * What the team lead asked in `<teammate-message teammate_id="team-lead" …>` blocks, joined: in a teammate's
 * session these are its requests and task assignments. Messages from other teammates (their reports, in the
 * lead's own session) and the team's JSON protocol messages (`idle_notification`, `shutdown_request`) are not.
 */
export function teamLeadText(text: string): string | undefined {
  const parts = teamMessages(text)
    .filter((m) => m.from === 'team-lead')
    .map((m) => m.text)
  return parts.length > 0 ? parts.join('\n\n') : undefined
}

/**
 * What the other teammates said (`<teammate-message teammate_id="backend-cache" …>Task #1 … is complete`): in
 * the lead's session, the reports on the tasks it handed out. The lead's own and the `system` ones are not.
 */
export function teamReports(text: string): TeamReport[] {
  return teamMessages(text).filter((m) => m.from !== 'team-lead' && m.from !== 'system')
}

/** The `<teammate-message>` blocks that carry words, not the team's JSON protocol (`idle_notification`, `shutdown_request`). */
function teamMessages(text: string): TeamReport[] {
  const out: TeamReport[] = []
  for (const m of text.matchAll(TEAMMATE_BLOCK)) {
    const from = /\bteammate_id="([^"]*)"/.exec(m[1] ?? '')?.[1] ?? ''
    const body = (m[2] ?? '').trim()
    if (body === '' || /^\{[\s\S]*"type"\s*:\s*"[a-z_]+"[\s\S]*\}$/.test(body)) continue
    out.push({ from, text: body })
  }
  return out
}

function resultText(content: unknown): string {
  let out = ''
  if (typeof content === 'string') out = content
  else if (Array.isArray(content)) {
    for (const b of content) {
      if (isObject(b) && b.type === 'text' && typeof b.text === 'string') {
        out += (out ? '\n' : '') + b.text
        if (out.length > RESULT_TEXT_CAP) break
      }
    }
  }
  return out.length > RESULT_TEXT_CAP ? out.slice(0, RESULT_TEXT_CAP) : out
}
