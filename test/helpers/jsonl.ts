/**
 * Builders for transcript lines in the shapes Claude Code writes (see host-contracts.md section 3),
 * for table tests. Each builder returns one record; `jsonl([...])` joins them into file text.
 */
let counter = 0

export interface LineOpts {
  cwd?: string
  ts?: string
  sessionId?: string
  sidechain?: boolean
  branch?: string
}

const SESSION = '11111111-2222-4333-8444-555555555555'

function envelope(type: string, o: LineOpts): Record<string, unknown> {
  counter++
  return {
    parentUuid: null,
    isSidechain: o.sidechain ?? false,
    userType: 'external',
    cwd: o.cwd ?? '/proj',
    sessionId: o.sessionId ?? SESSION,
    version: '2.1.63',
    gitBranch: o.branch ?? 'main',
    type,
    uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    timestamp: o.ts ?? `2026-11-28T10:${String(Math.floor(counter / 60) % 60).padStart(2, '0')}:${String(counter % 60).padStart(2, '0')}.000Z`,
  }
}

export function prompt(text: string, o: LineOpts = {}): Record<string, unknown> {
  return { ...envelope('user', o), message: { role: 'user', content: text } }
}

export function meta(text: string, o: LineOpts = {}): Record<string, unknown> {
  return { ...envelope('user', o), isMeta: true, message: { role: 'user', content: text } }
}

/** One assistant line (Claude Code writes one line per content block). */
function assistantLine(
  block: Record<string, unknown>,
  o: LineOpts & { model?: string; msgId?: string },
  stopReason: string | null,
  usage: Record<string, number>,
): Record<string, unknown> {
  return {
    ...envelope('assistant', o),
    requestId: 'req_test',
    message: {
      id: o.msgId ?? `msg_${counter}`,
      type: 'message',
      role: 'assistant',
      model: o.model ?? 'claude-sonnet-4-5',
      content: [block],
      stop_reason: stopReason,
      usage,
    },
  }
}

export function assistantText(text: string, o: LineOpts & { model?: string; msgId?: string } = {}): Record<string, unknown> {
  return assistantLine({ type: 'text', text }, o, null, { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 1000, cache_creation_input_tokens: 20 })
}

export function toolUse(id: string, name: string, input: Record<string, unknown>, o: LineOpts & { msgId?: string } = {}): Record<string, unknown> {
  return assistantLine({ type: 'tool_use', id, name, input }, o, 'tool_use', { input_tokens: 10, output_tokens: 5 })
}

export function toolResult(id: string, content: string, o: LineOpts & { isError?: boolean; result?: unknown } = {}): Record<string, unknown> {
  return {
    ...envelope('user', o),
    message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content, ...(o.isError ? { is_error: true } : {}) }] },
    toolUseResult: o.result ?? (o.isError ? `Error: ${content}` : { stdout: content, stderr: '', interrupted: false, isImage: false }),
  }
}

export function compactBoundary(o: LineOpts & { trigger?: string; preTokens?: number } = {}): Record<string, unknown> {
  return {
    ...envelope('system', o),
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    level: 'info',
    compactMetadata: { trigger: o.trigger ?? 'auto', preTokens: o.preTokens ?? 150000 },
  }
}

export function compactSummary(o: LineOpts = {}): Record<string, unknown> {
  return {
    ...envelope('user', o),
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    message: { role: 'user', content: 'This session is being continued from a previous conversation that ran out of context. Summary: ...' },
  }
}

/**
 * A subagent's line as Claude Code 2.1.12 … 2.1.63 writes it into the main transcript: a `progress` record
 * (not itself a sidechain line) whose `data.message` holds the subagent's message, without the envelope's
 * `isSidechain` and without `toolUseResult` (corpus cc-2.1.20-taskcreate-local-command-mcp-*).
 */
export function agentProgress(inner: Record<string, unknown>, parentToolUseId: string, o: LineOpts = {}): Record<string, unknown> {
  const message = { type: inner.type, message: inner.message, uuid: inner.uuid, timestamp: inner.timestamp }
  return {
    ...envelope('progress', o),
    data: { type: 'agent_progress', agentId: 'a333efa', prompt: '', normalizedMessages: [], message },
    toolUseID: `agent_msg_${counter}`,
    parentToolUseID: parentToolUseId,
  }
}

/** A tool call and its successful result. */
export function call(
  id: string,
  name: string,
  input: Record<string, unknown>,
  result: unknown = { stdout: '', stderr: '', interrupted: false, isImage: false },
  o: LineOpts = {},
): Record<string, unknown>[] {
  return [toolUse(id, name, input, o), toolResult(id, typeof result === 'string' ? result : 'ok', { ...o, result })]
}

export function jsonl(records: (Record<string, unknown> | Record<string, unknown>[])[]): string {
  return (
    records
      .flat()
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n'
  )
}
