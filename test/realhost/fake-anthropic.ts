/**
 * A scripted fake of the Anthropic Messages API, for driving the real Claude Code CLI offline.
 *
 * It listens on 127.0.0.1 only (port 0), records every request (parsed JSON body, peer address) and answers:
 * - main-loop turns (`POST /v1/messages` offering the agent's tools) from a per-test queue of replies;
 * - compaction turns (the summary prompt in the last user message) with `<analysis>…</analysis>\n<summary>…</summary>`;
 * - any other messages call (a side request: title, classifier, 2.0.76's `Warmup` and git-history calls) with a short generic text;
 * - `count_tokens`, `GET /v1/models`, `HEAD …` and anything else generically, so nothing fails by accident.
 *
 * Replies are SSE streams (`message_start` … `message_stop`) with the usage numbers the script chooses
 * (Claude Code takes `usage.input_tokens` at face value, which is how a test triggers auto-compaction), or
 * the same message as plain JSON when the client asks with `"stream": false` (its fallback path).
 */
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'

// ---------------------------------------------------------------------------------------------------------
// Looking into a Messages request

export interface MessagesBody {
  model?: string
  system?: unknown
  messages?: { role: string; content: unknown }[]
  tools?: { name?: string; type?: string }[]
  stream?: boolean
  [key: string]: unknown
}

/** The text of a message content (string, or text / tool_result blocks, nested). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((b: { type?: string; text?: unknown; content?: unknown }) => {
      if (b?.type === 'text' && typeof b.text === 'string') return b.text
      if (b?.type === 'tool_result') return textOf(b.content)
      return ''
    })
    .join('\n')
}

/** Everything the model reads as text: the top-level system prompt and every message (role "system" turns too). */
export function allText(body: MessagesBody): string {
  const system = typeof body.system === 'string' ? body.system : textOf(body.system)
  return [system, ...(body.messages ?? []).map((m) => textOf(m.content))].join('\n')
}

export function lastUserText(body: MessagesBody): string {
  const msgs = body.messages ?? []
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i]!.role === 'user') return textOf(msgs[i]!.content)
  return ''
}

export interface ToolResult {
  toolUseId: string
  text: string
  isError: boolean
}

/** The tool results in the last user message (what the previous reply's tool calls returned). */
export function lastToolResults(body: MessagesBody): ToolResult[] {
  const msgs = body.messages ?? []
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i]!
    if (m.role !== 'user') continue
    if (!Array.isArray(m.content)) return []
    return (m.content as { type?: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[])
      .filter((b) => b?.type === 'tool_result')
      .map((b) => ({ toolUseId: String(b.tool_use_id), text: textOf(b.content), isError: b.is_error === true }))
  }
  return []
}

export function toolNames(body: MessagesBody): string[] {
  return (body.tools ?? []).map((t) => t.name ?? t.type ?? '?')
}

const COMPACTION_PROMPT = /Your task is to create a detailed summary of the conversation so far/

export function isCompactionRequest(body: MessagesBody): boolean {
  return COMPACTION_PROMPT.test(lastUserText(body))
}

/** A main-loop turn offers the agent's own tools; side requests (titles, classifiers) do not. */
export function isMainLoopRequest(body: MessagesBody): boolean {
  const names = toolNames(body)
  return names.includes('Write') || names.includes('Bash')
}

// ---------------------------------------------------------------------------------------------------------
// Replies

export interface ToolCall {
  name: string
  input: Record<string, unknown>
  id?: string
}

export interface Usage {
  input_tokens?: number
  output_tokens?: number
  cache_read_input_tokens?: number
  cache_creation_input_tokens?: number
}

export interface Reply {
  /** A text block (first, when there are tool calls too). */
  text?: string
  /** Tool calls, in order: the reply stops with `tool_use`. */
  tools?: ToolCall[]
  /** Usage numbers to report (defaults: 100 in, 10 out, no cache). */
  usage?: Usage
  /** An HTTP error instead of a message. */
  error?: { status: number; type?: string; message?: string }
}

export type ScriptEntry = Reply | ((req: RecordedRequest, fake: FakeAnthropic) => Reply)

export const write = (file_path: string, content: string, text?: string): Reply => ({
  ...(text ? { text } : {}),
  tools: [{ name: 'Write', input: { file_path, content } }],
})
export const say = (text: string, usage?: Usage): Reply => ({ text, ...(usage ? { usage } : {}) })

export type RequestKind = 'main' | 'compaction' | 'side' | 'other'

export interface RecordedRequest {
  seq: number
  method: string
  path: string
  query: string
  /** The peer's address: the listener is bound to 127.0.0.1, so this must be 127.0.0.1. */
  remoteAddress: string
  localAddress: string
  headers: Record<string, string>
  /** Parsed JSON body (undefined when empty; the raw text when it is not JSON). */
  body: MessagesBody | undefined
  raw: string
  kind: RequestKind
  /** What the fake answered (the message object), or the error. */
  reply?: unknown
  status?: number
  /** A main-loop request that found the script queue empty (answered "ok"). */
  unscripted?: boolean
  /** A failure inside the fake (bad script function, bad body): the request was answered 500. */
  failure?: string
}

export interface FakeAnthropic {
  url: string
  port: number
  requests: RecordedRequest[]
  /** Every `POST /v1/messages` request. */
  messages(): RecordedRequest[]
  /** Main-loop requests only (optionally: from seq `after` on). */
  mainRequests(after?: number): RecordedRequest[]
  /** The queue of replies for main-loop requests; later calls append. */
  script(...entries: ScriptEntry[]): void
  /** Entries still queued (a finished scenario should have consumed them all). */
  pending(): number
  /** Drops whatever is still queued (a scenario starts from an empty script). */
  clearScript(): void
  /** Requests the fake could not answer properly (script errors, unscripted main-loop turns). */
  problems(): RecordedRequest[]
  /** The highest seq so far (to slice the requests of one run). */
  mark(): number
  close(): Promise<void>
}

export interface FakeOptions {
  /** The compaction answer (default: a fixed analysis + summary). */
  compactionSummary?: string
}

export const DEFAULT_SUMMARY =
  '<analysis>The user asked for a greeting module; two files were written.</analysis>\n<summary>FAKE-COMPACT-SUMMARY: greeting module written (src/greet.ts, src/greet.test.ts); one open task.</summary>'

let counter = 0
const nextId = (prefix: string): string => `${prefix}_fake_${Date.now().toString(36)}_${++counter}`

interface Message {
  id: string
  type: 'message'
  role: 'assistant'
  model: string
  content: ({ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> })[]
  stop_reason: 'end_turn' | 'tool_use'
  stop_sequence: null
  usage: Required<Usage>
}

export function buildMessage(reply: Reply, model: string | undefined): Message {
  const content: Message['content'] = []
  if (reply.text !== undefined && reply.text !== '') content.push({ type: 'text', text: reply.text })
  for (const t of reply.tools ?? []) content.push({ type: 'tool_use', id: t.id ?? nextId('toolu'), name: t.name, input: t.input })
  if (content.length === 0) content.push({ type: 'text', text: 'ok' })
  return {
    id: nextId('msg'),
    type: 'message',
    role: 'assistant',
    model: model ?? 'claude-fake',
    content,
    stop_reason: (reply.tools ?? []).length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage?.input_tokens ?? 100,
      output_tokens: reply.usage?.output_tokens ?? 10,
      cache_read_input_tokens: reply.usage?.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: reply.usage?.cache_creation_input_tokens ?? 0,
    },
  }
}

function sse(res: http.ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
}

function streamMessage(res: http.ServerResponse, msg: Message): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${msg.id}` })
  sse(res, 'message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null, usage: { ...msg.usage, output_tokens: 1 } } })
  msg.content.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } })
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } })
    } else {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } })
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } })
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index })
  })
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: msg.stop_reason, stop_sequence: null },
    usage: { output_tokens: msg.usage.output_tokens },
  })
  sse(res, 'message_stop', { type: 'message_stop' })
  res.end()
}

function sendJson(res: http.ServerResponse, status: number, obj: unknown): void {
  const s = JSON.stringify(obj)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s), 'request-id': 'req_fake' })
  res.end(s)
}

function decode(buf: Buffer, encoding: string | undefined): Buffer {
  switch (encoding) {
    case 'gzip':
      return zlib.gunzipSync(buf)
    case 'deflate':
      return zlib.inflateSync(buf)
    case 'br':
      return zlib.brotliDecompressSync(buf)
    default:
      return buf
  }
}

export async function startFakeAnthropic(options: FakeOptions = {}): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = []
  const queue: ScriptEntry[] = []
  let seq = 0
  const summary = options.compactionSummary ?? DEFAULT_SUMMARY

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v
      const rec: RecordedRequest = {
        seq: ++seq,
        method: req.method ?? '?',
        path: url.pathname,
        query: url.search,
        remoteAddress: req.socket.remoteAddress ?? '?',
        localAddress: req.socket.localAddress ?? '?',
        headers,
        body: undefined,
        raw: '',
        kind: 'other',
      }
      requests.push(rec)
      try {
        rec.raw = decode(Buffer.concat(chunks), headers['content-encoding']).toString('utf8')
        if (rec.raw !== '') {
          try {
            rec.body = JSON.parse(rec.raw) as MessagesBody
          } catch {
            rec.body = undefined
          }
        }
        answer(rec, res)
      } catch (e) {
        rec.failure = String((e as Error)?.stack ?? e)
        rec.status = 500
        sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: `fake failure: ${String(e)}` } })
      }
    })
  })

  function answer(rec: RecordedRequest, res: http.ServerResponse): void {
    if (rec.method === 'POST' && rec.path === '/v1/messages') {
      const body = rec.body
      if (!body || !Array.isArray(body.messages)) throw new Error('messages request without a JSON body')
      let reply: Reply
      if (isCompactionRequest(body)) {
        rec.kind = 'compaction'
        reply = { text: summary }
      } else if (isMainLoopRequest(body)) {
        rec.kind = 'main'
        const next = queue.shift()
        if (next === undefined) {
          rec.unscripted = true
          reply = { text: 'ok' }
        } else reply = typeof next === 'function' ? next(rec, fake) : next
      } else {
        rec.kind = 'side'
        reply = { text: 'Session' }
      }
      if (reply.error) {
        rec.status = reply.error.status
        rec.reply = reply.error
        return sendJson(res, reply.error.status, {
          type: 'error',
          error: { type: reply.error.type ?? 'api_error', message: reply.error.message ?? 'scripted error' },
        })
      }
      const msg = buildMessage(reply, body.model)
      rec.reply = msg
      rec.status = 200
      if (body.stream === false) return sendJson(res, 200, msg)
      return streamMessage(res, msg)
    }
    rec.status = 200
    if (rec.method === 'POST' && rec.path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: Math.ceil(rec.raw.length / 4) })
    if (rec.method === 'GET' && rec.path.startsWith('/v1/models')) {
      const id = 'claude-opus-5-5'
      return sendJson(res, 200, {
        data: [{ type: 'model', id, display_name: 'Fake', created_at: '2026-01-01T00:00:00Z' }],
        has_more: false,
        first_id: id,
        last_id: id,
      })
    }
    if (rec.method === 'HEAD') {
      res.writeHead(200)
      return void res.end()
    }
    return sendJson(res, 200, {})
  }

  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as AddressInfo).port

  const fake: FakeAnthropic = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    messages: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages'),
    mainRequests: (after = 0) => requests.filter((r) => r.kind === 'main' && r.seq > after),
    script: (...entries) => void queue.push(...entries),
    pending: () => queue.length,
    clearScript: () => void queue.splice(0),
    problems: () => requests.filter((r) => r.failure !== undefined || r.unscripted === true || (r.status !== undefined && r.status >= 400)),
    mark: () => seq,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return fake
}
