/**
 * Gemini CLI chat records -> entries. Pure: no I/O, no clock; never throws.
 *
 * A record is not new facts: 0.61 writes a message again under the same `id` as it grows (a reply, then the same
 * reply with its tool calls) and `{"$set":{"messages":[…]}}` replaces the history (the first context, a
 * compression, a resume that writes the whole history again). So the parser keeps `Seen`: hashed keys of the
 * requests, replies and calls already turned into entries, and a record yields only what is not in it. The
 * older `.json` sessions are one object whose `messages` are read the same way (read.ts).
 */
import { type Json, isObject, str } from '../../shared/json.js'
import type { AssistantBlock, AssistantEntry, EntryBase, NoteKind, ParsedLine, ToolResultEntry, TranscriptEntry, Usage } from '../../transcript/types.js'
import { jsonLineParser } from '../../transcript/json-line.js'
import { hash53 } from '../../shared/hash53.js' // collisions among a session's few thousand keys are negligible
import { BOOKMARK_FEEDBACK, RESULT_TEXT_CAP } from '../../transcript/types.js'

/** Keys of what was already read (53-bit hashes: JSON numbers, which the redactor leaves alone). */
export class Seen {
  private readonly keys: Set<number>
  constructor(kept?: readonly number[]) {
    this.keys = new Set(kept)
  }

  /** True the first time `key` is met. */
  first(key: string): boolean {
    const h = hash53(key)
    if (this.keys.has(h)) return false
    this.keys.add(h)
    return true
  }

  has(key: string): boolean {
    return this.keys.has(hash53(key))
  }

  toJSON(): number[] {
    return [...this.keys]
  }
}

/** A line parser that remembers across lines (and across reads, through `seen`). */
export function geminiLineParser(seen: Seen): (text: string, line: number) => ParsedLine {
  return jsonLineParser((record, line) => ({ ok: true, entries: recordEntries(record, line, seen) }))
}

/** One line read on its own (the Host's `parseLine`): a record rewritten later is read again by such a parser. */
export function parseLine(text: string, line: number): ParsedLine {
  return geminiLineParser(new Seen())(text, line)
}

function base(line: number, timestamp: unknown, cwd?: string): EntryBase {
  return { line, sidechain: false, uuid: undefined, timestamp: str(timestamp), cwd, gitBranch: undefined, version: undefined }
}

function other(b: EntryBase, type: string): TranscriptEntry {
  return { ...b, kind: 'other', type }
}

function note(b: EntryBase, kind: NoteKind): TranscriptEntry {
  return { ...b, kind: 'note', note: kind }
}

function assistant(b: EntryBase, block: AssistantBlock, extra: { apiError?: boolean; messageId?: string; model?: string; usage?: Usage } = {}): AssistantEntry {
  return { ...b, kind: 'assistant', block, apiError: extra.apiError === true, messageId: extra.messageId, model: extra.model, usage: extra.usage }
}

/** A record of the 0.61 file: the metadata line, a message (upserted by id), or an update (`$set`, `$rewindTo`). */
export function recordEntries(r: Json, line: number, seen: Seen): TranscriptEntry[] {
  if (isObject(r.$set)) {
    const set = r.$set
    if (Array.isArray(set.messages)) return messagesEntries(set.messages, line, seen)
    return [other(base(line, undefined), '$set')]
  }
  if (r.$rewindTo !== undefined) return [other(base(line, undefined), '$rewindTo')]
  if (r.type === undefined && str(r.sessionId) !== undefined) return [other(base(line, r.startTime), 'session')]
  return messageEntries(r, line, seen, false)
}

/**
 * A history (a checkpoint's, or a `.json` session's): the messages not read before, in order. `line`: the
 * checkpoint's line, or (a `.json` session) undefined for each message's place in the list.
 */
export function messagesEntries(messages: unknown[], line: number | undefined, seen: Seen): TranscriptEntry[] {
  const out: TranscriptEntry[] = []
  let afterSnapshot = false
  for (const [i, m] of messages.entries()) {
    if (!isObject(m)) continue
    out.push(...messageEntries(m, line ?? i + 1, seen, afterSnapshot))
    afterSnapshot = m.type === 'user' && textParts(m.content).some((t) => t.trimStart().startsWith(STATE_SNAPSHOT))
  }
  return out
}

const STATE_SNAPSHOT = '<state_snapshot>'
const SESSION_CONTEXT = '<session_context>'
const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>/g
const WORKSPACE = /\*\*Workspace Directories:\*\*\s*\n\s*-\s*(\S[^\n]*)/
/** The CLI's own nudge when the model stopped mid-turn (0.2x), recorded as a user message. */
const CONTINUE = /^System: Please continue\.?$/

function parts(content: unknown): Json[] {
  if (typeof content === 'string') return [{ text: content }]
  return Array.isArray(content) ? content.filter(isObject) : []
}

function textParts(content: unknown): string[] {
  return parts(content)
    .map((p) => str(p.text))
    .filter((t): t is string => t !== undefined)
}

/** A message's key in `seen`: its id, or (no id) its whole text. */
function keyOf(m: Json, kind: string): string {
  return `${kind}:${str(m.id) ?? JSON.stringify(m)}`
}

function messageEntries(m: Json, line: number, seen: Seen, afterSnapshot: boolean): TranscriptEntry[] {
  const type = str(m.type)
  const b = base(line, m.timestamp)
  switch (type) {
    case 'user':
      return seen.first(keyOf(m, 'u')) ? userEntries(m, b) : []
    case 'gemini':
      // The model's answer to a compression summary is not a reply of the session.
      if (afterSnapshot) return seen.first(keyOf(m, 't')) ? [other(b, 'gemini/summary-ack')] : []
      return replyEntries(m, b, seen)
    case 'error': {
      const text = textParts(m.content).join('\n').trim()
      if (!seen.first(keyOf(m, 'e'))) return []
      return [text ? assistant(b, { type: 'text', text }, { apiError: true }) : other(b, 'error')]
    }
    default:
      // info (compression notices, our systemMessage), warning: counted once.
      return seen.first(keyOf(m, 'o')) ? [other(b, type ?? 'record')] : []
  }
}

function userEntries(m: Json, b: EntryBase): TranscriptEntry[] {
  const all = parts(m.content)
  if (all.some((p) => p.functionResponse !== undefined)) return [other(b, 'user/functionResponse')] // the calls carry their results
  const texts = textParts(m.content)
  const snapshot = texts.find((t) => t.trimStart().startsWith(STATE_SNAPSHOT))
  if (snapshot !== undefined)
    return [
      { ...b, kind: 'compact_boundary', micro: false },
      { ...b, kind: 'compact_summary', text: snapshot },
    ]
  const out: TranscriptEntry[] = []
  const words: string[] = []
  let hookContext = false
  for (const t of texts) {
    if (t.trimStart().startsWith(SESSION_CONTEXT)) {
      out.push(note({ ...b, cwd: WORKSPACE.exec(t)?.[1]?.trim() }, 'meta'))
      continue
    }
    const stripped = t.replace(HOOK_CONTEXT, () => {
      hookContext = true
      return ''
    })
    if (stripped.trim() !== '') words.push(stripped.trim())
  }
  const text = words.join('\n')
  if (text === '') return out.length > 0 ? out : [note(b, hookContext ? 'hook-context' : 'meta')]
  // Our AfterAgent block comes back as a plain user turn: the model answering it is not the session's last word.
  if (text.includes(BOOKMARK_FEEDBACK)) return [...out, note(b, 'bookmark-feedback')]
  if (CONTINUE.test(text)) return [...out, note(b, 'meta')]
  return [...out, { ...b, kind: 'prompt', text }]
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0
}

function replyEntries(m: Json, b: EntryBase, seen: Seen): TranscriptEntry[] {
  const out: TranscriptEntry[] = []
  const id = str(m.id)
  const model = str(m.model)
  if (seen.first(keyOf(m, 'm'))) {
    // Gemini counts cached tokens inside `input`.
    const tokens = isObject(m.tokens) ? m.tokens : undefined
    const cached = tokens ? Math.min(num(tokens.cached), num(tokens.input)) : 0
    const usage: Usage | undefined = tokens ? { input: num(tokens.input) - cached, output: num(tokens.output), cacheRead: cached, cacheCreation: 0 } : undefined
    if (model || usage) out.push(assistant(b, { type: 'thinking' }, { model, messageId: id, usage }))
  }
  const text = textParts(m.content).join('\n')
  if (text.trim() !== '' && seen.first(keyOf(m, 't'))) out.push(assistant(b, { type: 'text', text }, { model, messageId: id }))
  const calls = Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObject) : []
  calls.forEach((call, i) => {
    const callId = str(call.id) ?? `${id ?? ''}#${i}`
    // A call written before it ran (no result, no final status) is read when it is written again.
    const done = Array.isArray(call.result) || (call.status !== undefined && call.status !== 'executing' && call.status !== 'scheduled')
    if (!done || seen.has(`c:${callId}`)) return
    seen.first(`c:${callId}`)
    out.push(...callEntries(call, callId, { ...b, timestamp: str(call.timestamp) ?? b.timestamp }))
  })
  return out
}

function cap(text: string): string {
  return text.length > RESULT_TEXT_CAP ? text.slice(0, RESULT_TEXT_CAP) : text
}

function toolResult(b: EntryBase, toolUseId: string, isError: boolean, text: string, result?: unknown): ToolResultEntry {
  return { ...b, kind: 'tool_result', toolUseId, isError, text: cap(text), result }
}

const UNTRUSTED = /^\s*<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>\s*$/

/** The call's output as the model got it (the functionResponse's `output` or `error`), unwrapped. */
function outputOf(call: Json): { text: string; error: boolean } {
  const texts: string[] = []
  let error = false
  for (const r of Array.isArray(call.result) ? call.result : []) {
    const fr = isObject(r) && isObject(r.functionResponse) ? r.functionResponse : undefined
    const response = fr && isObject(fr.response) ? fr.response : undefined
    if (!response) continue
    const out =
      str(response.output) ??
      str(response.error) ??
      (isObject(response.content) || Array.isArray(response.content) ? JSON.stringify(response.content) : undefined)
    if (response.error !== undefined) error = true
    if (out !== undefined) texts.push(out)
  }
  const text = texts.join('\n')
  return { text: UNTRUSTED.exec(text)?.[1] ?? text, error }
}

/** The first file of a unified diff's hunks as Claude Code's `structuredPatch` (what files.ts reads). */
function structuredPatch(fileDiff: string | undefined): { lines: string[] }[] | undefined {
  if (fileDiff === undefined) return undefined
  const lines: string[] = []
  let inHunk = false
  for (const l of fileDiff.split(/\r?\n/)) {
    if (l.startsWith('@@')) inHunk = true
    else if (inHunk && (l.startsWith('+') || l.startsWith('-') || l.startsWith(' '))) lines.push(l)
  }
  return [{ lines }]
}

const EXIT_CODE = /^(?:Exit Code|Command exited with code):? (-?\d+)\s*$/m

/**
 * A call in the words the shared rules read: `write_file` is Write and `replace` is Edit (with Claude Code's
 * result shape: create or update, the original text, the patch), `run_shell_command` is Bash with its exit code,
 * an MCP tool `mcp__<server>__<tool>`; any other tool keeps its name.
 */
function callEntries(call: Json, id: string, b: EntryBase): TranscriptEntry[] {
  const name = str(call.name) ?? 'unknown'
  const args = isObject(call.args) ? call.args : {}
  const display = isObject(call.resultDisplay) ? call.resultDisplay : undefined
  const { text, error } = outputOf(call)
  const failed = error || (call.status !== undefined && call.status !== 'success')
  const use = (at: EntryBase, tool: string, input: Json): AssistantEntry => assistant(at, { type: 'tool_use', id, name: tool, input })
  switch (name) {
    case 'write_file': {
      const created = display ? display.isNewFile === true : /^Successfully created and wrote to new file/.test(text)
      const original = display ? str(display.originalContent) : undefined
      const result = { type: created ? 'create' : 'update', ...(original !== undefined && !created ? { originalFile: original } : {}) }
      return [use(b, 'Write', { file_path: args.file_path, content: args.content }), toolResult(b, id, failed, text, result)]
    }
    case 'replace': {
      const patch = structuredPatch(display ? str(display.fileDiff) : undefined)
      const input = { file_path: args.file_path, old_string: args.old_string, new_string: args.new_string }
      return [use(b, 'Edit', input), toolResult(b, id, failed, text, patch ? { structuredPatch: patch } : undefined)]
    }
    case 'run_shell_command': {
      const command = str(args.command)
      if (command === undefined) break
      const dir = str(args.dir_path) ?? str(args.directory)
      const at = dir && dir.startsWith('/') ? { ...b, cwd: dir } : b
      const code = EXIT_CODE.exec(text)?.[1]
      const exited = code !== undefined && Number(code) !== 0
      const shellFailed = failed || exited
      return [use(at, 'Bash', { command }), toolResult(at, id, shellFailed, exited ? `Exit code ${code}\n${text}` : text)]
    }
  }
  const mcp = name.startsWith('mcp_') ? /^(.+) \((.+) MCP Server\)$/.exec(str(call.displayName) ?? '') : null
  const tool = mcp ? `mcp__${mcp[2]}__${mcp[1]}` : name
  return [use(b, tool, args), toolResult(b, id, failed, text)]
}
