/**
 * One line of a Codex rollout -> entries (the host's LineParser). Pure: no I/O, no clock; never throws.
 *
 * Two record generations: 0.14x tells the conversation in `event_msg` records (`user_message`, `agent_message`,
 * `patch_apply_end` …), 0.171 in `event_msg/item_completed` items (`UserMessage`, `AgentMessage`, `FileChange`
 * …). Both also keep the model's input as `response_item` records. Each fact is taken from one place only:
 * requests and replies from the events (the `response_item` messages repeat them, next to hook context and
 * environment notes that are not the user's words); tool calls from `response_item` (no event has the patch text
 * or a call's input in both generations). A call's result may come twice (the event, then the `response_item`
 * output): the first one takes the call out of the extraction's pending table, so the second finds nothing.
 */
import { type Json, isObject, str } from '../../shared/json.js'
import type { AssistantBlock, AssistantEntry, EntryBase, NoteKind, ParsedLine, ToolResultEntry, TranscriptEntry, Usage } from '../../transcript/types.js'
import { BOOKMARK_FEEDBACK, RESULT_TEXT_CAP } from '../../transcript/types.js'
import { SKIPPED, jsonLineParser } from '../../transcript/json-line.js'

export const parseLine = jsonLineParser((record, line) => parseRecord(record, line))

function base(r: Json, line: number, cwd?: string): EntryBase {
  return { line, sidechain: false, uuid: undefined, timestamp: str(r.timestamp), cwd, gitBranch: undefined, version: undefined }
}

function ok(...entries: TranscriptEntry[]): ParsedLine {
  return { ok: true, entries }
}

function other(b: EntryBase, type: string): ParsedLine {
  return ok({ ...b, kind: 'other', type })
}

function note(b: EntryBase, kind: NoteKind): TranscriptEntry {
  return { ...b, kind: 'note', note: kind }
}

function assistant(b: EntryBase, block: AssistantBlock, extra: { apiError?: boolean; messageId?: string; model?: string; usage?: Usage } = {}): AssistantEntry {
  return { ...b, kind: 'assistant', block, apiError: extra.apiError === true, messageId: extra.messageId, model: extra.model, usage: extra.usage }
}

function toolResult(b: EntryBase, toolUseId: string, isError: boolean, text: string, result?: unknown): ToolResultEntry {
  return { ...b, kind: 'tool_result', toolUseId, isError, text: cap(text), result }
}

function cap(text: string): string {
  return text.length > RESULT_TEXT_CAP ? text.slice(0, RESULT_TEXT_CAP) : text
}

function parseRecord(r: Json, line: number): ParsedLine {
  const type = str(r.type)
  if (type === undefined) return SKIPPED
  const p = isObject(r.payload) ? r.payload : {}
  switch (type) {
    case 'session_meta': {
      const git = isObject(p.git) ? p.git : {}
      const b: EntryBase = { ...base(r, line, str(p.cwd)), gitBranch: str(git.branch), version: str(p.cli_version) }
      return other(b, 'session_meta')
    }
    case 'turn_context': {
      // The model is named once per turn, here: an empty block carries it to the model count.
      const b = base(r, line, str(p.cwd))
      const model = str(p.model)
      if (model === undefined) return other(b, 'turn_context')
      return ok(assistant(b, { type: 'thinking' }, { model, messageId: `turn:${str(p.turn_id) ?? line}:${model}` }))
    }
    case 'compacted':
      return ok({ ...base(r, line), kind: 'compact_boundary', micro: false })
    case 'event_msg':
      return parseEvent(p, base(r, line))
    case 'response_item':
      return parseItem(p, base(r, line))
    default:
      return other(base(r, line), type)
  }
}

/** Our own Stop block (hooks' `<hook_prompt>`) is marked so that the reply to it is not the session's last word. */
function hookPrompt(b: EntryBase, text: string): TranscriptEntry {
  return note(b, text.includes(BOOKMARK_FEEDBACK) ? 'bookmark-feedback' : 'hook-context')
}

function request(b: EntryBase, raw: string): TranscriptEntry {
  const text = raw.trim()
  if (text === '') return note(b, 'hook-context')
  if (text.startsWith('<hook_prompt')) return hookPrompt(b, text)
  if (text.startsWith('<turn_aborted>')) return note(b, 'interrupt')
  return { ...b, kind: 'prompt', text }
}

function texts(content: unknown, type: string): string {
  if (!Array.isArray(content)) return ''
  return content
    .filter((c): c is Json => isObject(c) && c.type === type && typeof c.text === 'string')
    .map((c) => c.text as string)
    .join('\n')
}

function parseEvent(p: Json, b: EntryBase): ParsedLine {
  const type = str(p.type) ?? ''
  switch (type) {
    case 'user_message':
      return ok(request(b, str(p.message) ?? ''))
    case 'agent_message': {
      const text = str(p.message)
      return text ? ok(assistant(b, { type: 'text', text })) : other(b, 'event_msg/agent_message')
    }
    case 'item_completed':
      return isObject(p.item) ? parseCompletedItem(p.item, b) : other(b, 'event_msg/item_completed')
    case 'exec_command_end':
      return commandEnd(b, str(p.call_id), p)
    case 'patch_apply_end': {
      const id = str(p.call_id)
      if (!id) return other(b, 'event_msg/patch_apply_end')
      const failed = p.success === false || (p.status !== undefined && p.status !== 'completed')
      return ok(toolResult(b, id, failed, joinOutput(p.stdout, p.stderr), { changes: p.changes }))
    }
    case 'mcp_tool_call_end':
      return mcpEnd(b, str(p.call_id), p.result)
    case 'turn_aborted':
      return p.reason === 'interrupted' ? ok(note(b, 'interrupt')) : other(b, 'event_msg/turn_aborted')
    case 'error': {
      const text = str(p.message)
      return text ? ok(assistant(b, { type: 'text', text }, { apiError: true })) : other(b, 'event_msg/error')
    }
    case 'thread_name_updated': {
      const title = str(p.thread_name)
      return title ? ok({ ...b, kind: 'title', title, source: 'custom-title' }) : other(b, 'event_msg/thread_name_updated')
    }
    case 'token_count': {
      const info = isObject(p.info) ? p.info : {}
      const last = isObject(info.last_token_usage) ? info.last_token_usage : undefined
      if (!last) return other(b, 'event_msg/token_count')
      // OpenAI counts cached input inside input_tokens.
      const input = num(last.input_tokens)
      const cached = Math.min(num(last.cached_input_tokens), input)
      const usage: Usage = { input: input - cached, output: num(last.output_tokens), cacheRead: cached, cacheCreation: 0 }
      return ok(assistant(b, { type: 'thinking' }, { usage }))
    }
    default:
      return other(b, type ? `event_msg/${type}` : 'event_msg')
  }
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0
}

function parseCompletedItem(item: Json, b: EntryBase): ParsedLine {
  const type = str(item.type) ?? ''
  const id = str(item.id)
  switch (type) {
    case 'UserMessage':
      return ok(request(b, texts(item.content, 'text')))
    case 'AgentMessage': {
      const text = texts(item.content, 'Text') || texts(item.content, 'text')
      return text ? ok(assistant(b, { type: 'text', text }, { messageId: id })) : other(b, 'item/AgentMessage')
    }
    case 'HookPrompt': {
      const fragments = Array.isArray(item.fragments) ? item.fragments : []
      return ok(
        hookPrompt(
          b,
          texts(
            fragments.map((f) => (isObject(f) ? { type: 'text', text: f.text } : f)),
            'text',
          ),
        ),
      )
    }
    case 'CommandExecution':
      return commandEnd(b, id, item)
    case 'FileChange': {
      if (!id) return other(b, 'item/FileChange')
      return ok(toolResult(b, id, item.status !== 'completed', joinOutput(item.stdout, item.stderr), { changes: item.changes }))
    }
    case 'McpToolCall': {
      const failed = item.status === 'failed' || (isObject(item.result) && item.result.isError === true)
      return id ? ok(toolResult(b, id, failed, mcpText(item.result) || str(item.error) || '')) : other(b, 'item/McpToolCall')
    }
    default:
      // ContextCompaction: the `compacted` record of the same compaction is its boundary.
      return other(b, `item/${type}`)
  }
}

function joinOutput(...parts: unknown[]): string {
  return parts.filter((s): s is string => typeof s === 'string' && s !== '').join('\n')
}

/** A command's end: failed when it exited non-zero or did not run (declined, failed to start). */
function commandEnd(b: EntryBase, id: string | undefined, p: Json): ParsedLine {
  if (!id) return other(b, 'command_end')
  const code = typeof p.exit_code === 'number' ? p.exit_code : undefined
  const failed = code !== undefined ? code !== 0 : p.status !== undefined && p.status !== 'completed'
  const output = str(p.aggregated_output) ?? joinOutput(p.stdout, p.stderr)
  return ok(toolResult(b, id, failed, failed && code !== undefined ? `Exit code ${code}\n${output}` : output))
}

function mcpText(result: unknown): string {
  if (!isObject(result)) return typeof result === 'string' ? result : ''
  return texts(result.content, 'text')
}

/** `result` is `{Ok: {content, isError}}` or `{Err: message}`. */
function mcpEnd(b: EntryBase, id: string | undefined, result: unknown): ParsedLine {
  if (!id) return other(b, 'event_msg/mcp_tool_call_end')
  const res = isObject(result) ? result : {}
  if (res.Err !== undefined) return ok(toolResult(b, id, true, typeof res.Err === 'string' ? res.Err : JSON.stringify(res.Err)))
  const okResult = isObject(res.Ok) ? res.Ok : res
  return ok(toolResult(b, id, okResult.isError === true, mcpText(okResult)))
}

function parseItem(p: Json, b: EntryBase): ParsedLine {
  const type = str(p.type) ?? ''
  switch (type) {
    case 'function_call': {
      const id = str(p.call_id)
      const name = str(p.name)
      if (!id || !name) return other(b, 'response_item/function_call')
      return toolCall(b, id, qualified(name, str(p.namespace)), jsonObject(p.arguments))
    }
    case 'custom_tool_call': {
      const id = str(p.call_id)
      const name = str(p.name)
      if (!id || !name) return other(b, 'response_item/custom_tool_call')
      const input = str(p.input) ?? ''
      if (name === 'apply_patch') return ok(assistant(b, { type: 'tool_use', id, name, input: patchInput(input) }))
      return toolCall(b, id, name, jsonObject(input))
    }
    case 'local_shell_call': {
      const id = str(p.call_id) ?? str(p.id)
      const action = isObject(p.action) ? p.action : {}
      if (!id) return other(b, 'response_item/local_shell_call')
      return toolCall(b, id, 'shell', { command: action.command, workdir: action.working_directory })
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const id = str(p.call_id)
      if (!id) return other(b, `response_item/${type}`)
      return ok(outputResult(b, id, p.output))
    }
    default:
      // Messages repeat the events (and carry hook context); reasoning, searches: counted only.
      return other(b, type ? `response_item/${type}` : 'response_item')
  }
}

/** MCP tools come as namespace `mcp__server` + name `tool` (or `_tool` continuing a split name). */
function qualified(name: string, namespace: string | undefined): string {
  if (!namespace) return name
  return name.startsWith('_') || namespace.endsWith('_') ? namespace + name : `${namespace}__${name}`
}

function jsonObject(v: unknown): Json {
  if (isObject(v)) return v
  if (typeof v !== 'string' || !v.trimStart().startsWith('{')) return {}
  try {
    const parsed: unknown = JSON.parse(v)
    return isObject(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

const FIRST_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/m

/** The patch text, and its first file as the call's target (what an error is about). */
function patchInput(patch: string): Record<string, unknown> {
  const first = FIRST_FILE.exec(patch)?.[1]?.trim()
  return first ? { patch, file_path: first } : { patch }
}

/** A shell given as argv: `bash -lc "<script>"` is the script, anything else its words joined. */
function commandOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v
  if (!Array.isArray(v) || !v.every((w) => typeof w === 'string')) return undefined
  const argv = v as string[]
  const shell = argv[0] !== undefined && /(^|\/)(ba|z|da)?sh$/.test(argv[0])
  if (shell && argv.length === 3 && /^-l?c$/.test(argv[1]!)) return argv[2]
  return argv.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ')
}

/**
 * A function call in the words the shared rules read: a shell command is `Bash` with `command` (the git, file
 * and error rules apply), run in its `workdir` when it names one; `update_plan` is the task list (`TodoWrite`).
 */
function toolCall(b: EntryBase, id: string, name: string, args: Json): ParsedLine {
  if (name === 'exec_command' || name === 'shell' || name === 'container.exec' || name === 'shell_command') {
    const command = commandOf(args.cmd ?? args.command)
    if (command !== undefined) {
      const workdir = str(args.workdir) ?? str(args.cwd)
      const at: EntryBase = workdir && workdir.startsWith('/') ? { ...b, cwd: workdir } : b
      return ok(assistant(at, { type: 'tool_use', id, name: 'Bash', input: { command } }))
    }
  }
  if (name === 'update_plan' && Array.isArray(args.plan)) {
    const todos = args.plan.filter(isObject).map((s) => ({ content: str(s.step) ?? '', status: str(s.status) ?? 'pending' }))
    return ok(assistant(b, { type: 'tool_use', id, name: 'TodoWrite', input: { todos } }))
  }
  return ok(assistant(b, { type: 'tool_use', id, name, input: args }))
}

const EXITED = /^Process exited with code (-?\d+)$/m
const EXIT_CODE = /^Exit code:? (-?\d+)$/m
const RUNNING = /^Process running with session ID/m

/**
 * A call's output: exec's `Chunk ID … Process exited with code N … Output:\n<text>`, apply_patch's `Exit code: N
 * … Output:\n<text>`, the older shell's JSON `{output, metadata: {exit_code}}`, content parts, or plain text.
 */
function outputResult(b: EntryBase, id: string, output: unknown): ToolResultEntry {
  let text = typeof output === 'string' ? output : Array.isArray(output) ? texts(output, 'input_text') || texts(output, 'text') : ''
  if (isObject(output)) text = str(output.text) ?? str(output.content) ?? ''
  let code: number | undefined
  if (text.startsWith('{"output"')) {
    const parsed = jsonObject(text)
    const meta = isObject(parsed.metadata) ? parsed.metadata : {}
    if (typeof parsed.output === 'string') text = parsed.output
    if (typeof meta.exit_code === 'number') code = meta.exit_code
  } else {
    const head = text.slice(0, 400)
    const exited = EXITED.exec(head) ?? EXIT_CODE.exec(head)
    if (exited) code = Number(exited[1])
    const body = text.indexOf('\nOutput:\n')
    if ((exited || RUNNING.test(head)) && body !== -1 && body < 400) text = text.slice(body + '\nOutput:\n'.length)
  }
  const failed = code !== undefined ? code !== 0 : /^apply_patch verification failed/.test(text)
  return toolResult(b, id, failed, failed && code !== undefined ? `Exit code ${code}\n${text}` : text)
}
