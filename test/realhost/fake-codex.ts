/**
 * A scripted fake of the OpenAI Responses API (`POST /v1/responses`, SSE) for driving the real Codex CLI 0.171
 * offline, on 127.0.0.1 only. After ../shared/harness/fake-codex.mjs, with the one reply bookmark needs: when the
 * last user item is our Stop hook's request for the handoff, the model writes it with apply_patch (the identity
 * header copied from the request, as a model does).
 *
 * Replies, from the last input item:
 * - a tool output -> "Done.";
 * - our handoff request -> apply_patch adding `.bookmark/bookmark.context.md`;
 * - "patch file" -> apply_patch adding patched.txt;
 * - "call bookmark status" -> the MCP tool bookmark_status of the server registered as "bookmark" (called
 *   directly in its namespace, which Codex accepts without the tool_search step);
 * - "make and commit" -> four steps, one per request (counted by the tool outputs after the prompt): exec_command
 *   writing notes.txt, apply_patch adding a line to it, exec_command committing it, then "Committed.";
 * - "fill context" -> "filled", reporting 250,000 input tokens (Codex compacts before its next turn);
 * - Codex's compaction prompt -> a summary;
 * - anything else -> "ok".
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface InputItem {
  type?: string
  role?: string
  content?: unknown
}

export interface RecordedResponse {
  body: { input?: InputItem[]; [k: string]: unknown }
  reply: string
}

export interface FakeCodex {
  url: string
  requests: RecordedResponse[]
  close(): Promise<void>
}

export function itemText(item: InputItem | undefined): string {
  if (!item) return ''
  if (typeof item.content === 'string') return item.content
  if (Array.isArray(item.content)) return item.content.map((c: { text?: string }) => c.text ?? '').join('\n')
  return ''
}

const unescape = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

export const HANDOFF_REQUEST = 'session-bookmark: before you stop, write the handoff'

function handoffPatch(request: string): string {
  const header = /<!-- BOOKMARK_IDENTITY[\s\S]*?-->/.exec(unescape(request))?.[0] ?? ''
  const body = [
    header,
    '',
    '# Handoff: proj',
    '',
    '## Task',
    'Add patched.txt as the user asked (FAKE-MODEL-HANDOFF).',
    '',
    '## Next step',
    'Check patched.txt with the user.',
  ]
  const lines = body.join('\n').split('\n')
  return ['*** Begin Patch', '*** Add File: .bookmark/bookmark.context.md', ...lines.map((l) => `+${l}`), '*** End Patch'].join('\n')
}

type Reply = { text: string; tokens?: number } | { patch: string } | { call: { namespace?: string; name: string; arguments: object } }

/** The commit step's message: the test looks for it in LATEST.md. */
export const COMMIT_MESSAGE = 'Add notes with a second line'

/** "make and commit", step by step: what the model does after `done` tool outputs. */
function makeAndCommit(done: number): Reply {
  switch (done) {
    case 0:
      return { call: { name: 'exec_command', arguments: { cmd: "printf 'alpha\\n' > notes.txt" } } }
    case 1:
      return { patch: '*** Begin Patch\n*** Update File: notes.txt\n@@\n alpha\n+beta\n*** End Patch' }
    case 2:
      return { call: { name: 'exec_command', arguments: { cmd: `git add notes.txt && git -c user.email=t@t -c user.name=t commit -m '${COMMIT_MESSAGE}'` } } }
    default:
      return { text: 'Committed.' }
  }
}

function choose(input: InputItem[]): Reply {
  const last = input[input.length - 1]
  let user = ''
  let at = -1
  for (let i = input.length - 1; i >= 0; i--)
    if (input[i]!.type === 'message' && input[i]!.role === 'user') {
      user = itemText(input[i])
      at = i
      break
    }
  if (/make and commit/i.test(user)) return makeAndCommit(input.slice(at + 1).filter((i) => /_call_output$/.test(i.type ?? '')).length)
  if (last && /_call_output$/.test(last.type ?? '')) return { text: 'Done.' }
  if (/CONTEXT CHECKPOINT COMPACTION/i.test(user)) return { text: 'FAKE-SUMMARY: the user filled the context.' }
  if (/fill context/i.test(user)) return { text: 'filled', tokens: 250_000 }
  if (user.includes(HANDOFF_REQUEST)) return { patch: handoffPatch(user) }
  if (/call bookmark status/i.test(user)) return { call: { namespace: 'mcp__bookmark', name: 'bookmark_status', arguments: {} } }
  if (/patch file/i.test(user)) return { patch: '*** Begin Patch\n*** Add File: patched.txt\n+patched line 1\n+patched line 2\n*** End Patch' }
  return { text: 'ok' }
}

let n = 0
function stream(res: http.ServerResponse, reply: Reply, model: unknown): void {
  const id = `resp_fake_${++n}`
  const send = (data: { type: string; [k: string]: unknown }): boolean => res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`)
  const tokens = 'tokens' in reply && reply.tokens !== undefined ? reply.tokens : 100
  const usage = {
    input_tokens: tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens + 10,
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  send({ type: 'response.created', response: { id, object: 'response', status: 'in_progress', model, output: [] } })
  let item: Record<string, unknown>
  if ('call' in reply) {
    const args = JSON.stringify(reply.call.arguments)
    item = {
      type: 'function_call',
      id: `fc_${n}`,
      call_id: `call_fake_${n}`,
      ...(reply.call.namespace ? { namespace: reply.call.namespace } : {}),
      name: reply.call.name,
      arguments: args,
      status: 'completed',
    }
    send({ type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } })
    send({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: 0, delta: args })
    send({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: 0, arguments: args })
  } else if ('patch' in reply) {
    item = { type: 'custom_tool_call', id: `ctc_${n}`, call_id: `call_fake_${n}`, name: 'apply_patch', input: reply.patch, status: 'completed' }
    send({ type: 'response.output_item.added', output_index: 0, item: { ...item, input: '', status: 'in_progress' } })
    send({ type: 'response.custom_tool_call_input.delta', item_id: item.id, output_index: 0, delta: reply.patch })
    send({ type: 'response.custom_tool_call_input.done', item_id: item.id, output_index: 0, input: reply.patch })
  } else {
    const part = { type: 'output_text', text: reply.text, annotations: [] }
    item = { type: 'message', id: `msg_fake_${n}`, role: 'assistant', status: 'completed', content: [part] }
    send({ type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } })
    send({ type: 'response.content_part.added', item_id: item.id, output_index: 0, content_index: 0, part: { ...part, text: '' } })
    send({ type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: reply.text })
    send({ type: 'response.output_text.done', item_id: item.id, output_index: 0, content_index: 0, text: reply.text })
    send({ type: 'response.content_part.done', item_id: item.id, output_index: 0, content_index: 0, part })
  }
  send({ type: 'response.output_item.done', output_index: 0, item })
  send({ type: 'response.completed', response: { id, object: 'response', status: 'completed', model, output: [item], usage } })
  res.end()
}

export async function startFakeCodex(): Promise<FakeCodex> {
  const requests: RecordedResponse[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname
      if (req.method === 'POST' && path.endsWith('/responses')) {
        let body: RecordedResponse['body'] = {}
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedResponse['body']
        } catch {
          // a body that does not parse is answered "ok" and kept as {}
        }
        const reply = choose(Array.isArray(body.input) ? body.input : [])
        requests.push({ body, reply: 'patch' in reply ? 'apply_patch' : 'call' in reply ? reply.call.name : reply.text })
        return stream(res, reply, body.model)
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
