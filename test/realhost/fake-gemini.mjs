#!/usr/bin/env node
// Scripted fake of the Gemini API (generativelanguage v1beta) for driving the real Gemini CLI
// (verified with @google/gemini-cli 0.61.0) offline. Plain Node, no deps, binds 127.0.0.1 only.
// Point the CLI at it with GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT (auth type becomes "gateway").
//
// CLI:    node fake-gemini.mjs --log requests.jsonl [--port 0] [--port-file f]
// Module: import { startFakeGemini } from './fake-gemini.mjs'; const f = await startFakeGemini({ logFile });
//
// Endpoints: POST /v1beta/models/<model>:streamGenerateContent?alt=sse (SSE, main loop),
//            POST /v1beta/models/<model>:generateContent (JSON: routing/next-speaker/compression helpers),
//            POST /v1beta/models/<model>:countTokens, GET /v1beta/models, anything else -> 200 {}.
// The reply is chosen from the LAST user turn's text in `contents`, without <hook_context> and <session_context>:
//   our AfterAgent handoff request -> write_file of the handoff it asks for (header copied from the request)
//   "create hello.txt" -> write_file {file_path:<cwd>/hello.txt, content:"hello\n"}
//   "edit hello.txt"   -> replace    {file_path:<cwd>/hello.txt, old_string:"hello", new_string:"hello world"}
//   "run shell"        -> run_shell_command {command:"echo shell > shell.txt"}
//   "write notes.md"   -> write_file notes.md (AfterAgent block reason)
//   "call mcp"         -> the first function declaration whose name starts with "mcp_" (MCP tool)
//   "call mcp <tool>"  -> the declaration whose name ends with "_<tool>" (mcp_bookmark_bookmark_status)
//   "fill context"     -> text, but usageMetadata.promptTokenCount = FAKE_BIG_TOKENS (default 900000)
//   "fill and create"  -> write_file big.txt with that huge promptTokenCount, so the NEXT model call of the
//                         same turn triggers auto-compression (threshold 0.5 x model token limit)
//   compression prompt (state_snapshot) -> "<state_snapshot>FAKE-GEMINI-SUMMARY</state_snapshot>"
//   after a functionResponse -> "Done."
//   anything else -> "ok"
// <cwd> is FAKE_CWD if set (in the fake's env), else the first "Workspace Directories" entry of <session_context>.
import http from 'node:http'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'

const partsText = (parts) => (parts || []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n')
function lastUser(contents) {
  for (let i = contents.length - 1; i >= 0; i--) {
    const c = contents[i]
    if (c.role === 'user') return c
  }
  return null
}
function lastUserText(contents) {
  for (let i = contents.length - 1; i >= 0; i--) {
    const c = contents[i]
    if (c.role === 'user' && (c.parts || []).some((p) => typeof p.text === 'string')) return partsText(c.parts)
  }
  return ''
}
// What the user typed in that turn: without hooks' <hook_context> blocks (a restore quotes earlier prompts, which
// would otherwise pick the reply) and Gemini's own <session_context>.
const ownText = (text) =>
  text
    .replace(/<hook_context>[\s\S]*?<\/hook_context>/g, '')
    .replace(/<session_context>[\s\S]*?<\/session_context>/g, '')
    .trim()

export const HANDOFF_REQUEST = 'session-bookmark: before you stop, write the handoff'

// The model's answer to the AfterAgent block: write_file of the handoff at the path the request names, starting
// with the identity header it gives (as a model does), then the sections.
function handoffCall(request) {
  const path = /\nUse write_file to write (\S+) now, replacing the file\./.exec(request)?.[1]
  const header = /<!-- BOOKMARK_IDENTITY[\s\S]*?-->/.exec(request)?.[0]
  if (!path || !header) return { text: 'no handoff path or header in the request' }
  const project = /\nproject: (.+)\n/.exec(header)?.[1] ?? 'proj'
  const content = [
    header,
    `# Handoff: ${project}`,
    '',
    '## Task',
    'Run the shell command the user asked for and keep its output in shell.txt (FAKE-MODEL-HANDOFF).',
    '',
    '## Progress',
    'shell.txt is written; nothing is committed yet.',
    '',
    '## Next step',
    'Check shell.txt with the user.',
    '',
  ].join('\n')
  return { call: { name: 'write_file', args: { file_path: path, content } } }
}
function findCwd(body) {
  if (process.env.FAKE_CWD) return process.env.FAKE_CWD
  // Gemini CLI 0.61 sends "<session_context> ... - **Workspace Directories:**\n  - /abs/path" in the first user turn.
  const first = partsText((body.contents || [])[0]?.parts || [])
  const m = first.match(/Workspace Directories:\*\*\s*\n\s*-\s*(\/[^\n]+)/)
  return m ? m[1].trim() : '.'
}
function declarations(body) {
  return (body.tools || []).flatMap((t) => t.functionDeclarations || [])
}

export function chooseReply(body) {
  const contents = Array.isArray(body.contents) ? body.contents : []
  const lu = lastUser(contents)
  const whole = lastUserText(contents)
  const sys = partsText(body.systemInstruction?.parts || [])
  if (/state_snapshot/i.test(sys + whole) && /compress|snapshot|summar/i.test(sys + whole)) {
    return { text: '<state_snapshot>\n<overall_goal>FAKE-GEMINI-SUMMARY: user created hello.txt</overall_goal>\n</state_snapshot>' }
  }
  if (lu && (lu.parts || []).some((p) => p.functionResponse)) return { text: 'Done.' }
  const text = ownText(whole)
  if (text.startsWith(HANDOFF_REQUEST)) return handoffCall(text)
  const cwd = findCwd(body)
  if (/fill and create/i.test(text))
    return {
      call: { name: 'write_file', args: { file_path: `${cwd}/big.txt`, content: 'big\n' } },
      promptTokens: Number(process.env.FAKE_BIG_TOKENS || 900000),
    }
  if (/fill context/i.test(text)) return { text: 'filled', promptTokens: Number(process.env.FAKE_BIG_TOKENS || 900000) }
  if (/write notes\.md/i.test(text)) return { call: { name: 'write_file', args: { file_path: `${cwd}/notes.md`, content: 'notes\n' } } }
  if (/create hello\.txt/i.test(text)) return { call: { name: 'write_file', args: { file_path: `${cwd}/hello.txt`, content: 'hello\n' } } }
  if (/edit hello\.txt/i.test(text))
    return {
      call: { name: 'replace', args: { file_path: `${cwd}/hello.txt`, old_string: 'hello', new_string: 'hello world', instruction: 'greet the world' } },
    }
  if (/run shell/i.test(text)) return { call: { name: 'run_shell_command', args: { command: 'echo shell > shell.txt', description: 'write shell.txt' } } }
  if (/call mcp/i.test(text)) {
    const want = /call mcp (\w+)/i.exec(text)?.[1]
    const d = declarations(body).find((f) => (want ? f.name.endsWith(`_${want}`) : /^mcp_/.test(f.name) || /echo/.test(f.name)))
    // The harness's echo tool takes `text`; a tool without that parameter (bookmark's) is called with none.
    const props = (d && (d.parametersJsonSchema || d.parameters || {}).properties) || {}
    if (d) return { call: { name: d.name, args: 'text' in props ? { text: 'from-fake' } : {} } }
    return {
      text: `no mcp tool offered: ${declarations(body)
        .map((f) => f.name)
        .join(',')}`,
    }
  }
  return { text: 'ok' }
}

// JSON-mode helper calls (router, next-speaker check, loop detection...) carry a response schema.
function jsonReply(body) {
  const gc = body.generationConfig || {}
  const schema = gc.responseJsonSchema || gc.responseSchema
  if (!schema) return null
  const props = schema.properties || {}
  const out = {}
  for (const [k, v] of Object.entries(props)) {
    if (k === 'next_speaker') out[k] = 'user'
    else if (k === 'model_choice') out[k] = 'flash'
    else if (v.enum) out[k] = v.enum[0]
    else if (v.type === 'boolean' || v.type === 'BOOLEAN') out[k] = false
    else if (v.type === 'number' || v.type === 'integer' || v.type === 'NUMBER' || v.type === 'INTEGER') out[k] = v.minimum ?? 1
    else if (v.type === 'array' || v.type === 'ARRAY') out[k] = []
    else out[k] = 'fake'
  }
  return { text: JSON.stringify(out) }
}

function candidate(spec) {
  const parts = spec.call ? [{ functionCall: { name: spec.call.name, args: spec.call.args } }] : [{ text: spec.text }]
  return { content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }
}
function usage(spec) {
  const p = spec.promptTokens ?? 100
  return { promptTokenCount: p, candidatesTokenCount: 10, totalTokenCount: p + 10 }
}

export function startFakeGemini({ port = 0, logFile } = {}) {
  const requests = []
  let seq = 0
  const log = (e) => {
    const entry = { seq: ++seq, ts: new Date().toISOString(), ...e }
    requests.push(entry)
    if (logFile) fs.appendFileSync(logFile, JSON.stringify(entry) + '\n')
  }
  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body = null
      try {
        body = raw ? JSON.parse(raw) : null
      } catch {
        body = { _raw: raw.slice(0, 2000) }
      }
      const url = new URL(req.url, 'http://x')
      const entry = {
        method: req.method,
        path: url.pathname,
        query: url.search,
        headers: {
          'user-agent': req.headers['user-agent'],
          'x-goog-api-key': req.headers['x-goog-api-key'],
          'x-goog-api-client': req.headers['x-goog-api-client'],
        },
        body,
      }
      const m = url.pathname.match(/\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/)
      if (req.method === 'POST' && m) {
        const [, model, op] = m
        if (op === 'countTokens') {
          log(entry)
          res.writeHead(200, { 'content-type': 'application/json' })
          return res.end(JSON.stringify({ totalTokens: Math.ceil(raw.length / 4) }))
        }
        const spec = jsonReply(body || {}) || chooseReply(body || {})
        log({ ...entry, op, model, reply: spec })
        const resp = { candidates: [candidate(spec)], usageMetadata: usage(spec), modelVersion: model, responseId: `fake-${seq}` }
        if (op === 'generateContent') {
          res.writeHead(200, { 'content-type': 'application/json' })
          return res.end(JSON.stringify(resp))
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
        res.write(`data: ${JSON.stringify(resp)}\r\n\r\n`)
        return res.end()
      }
      log(entry)
      if (req.method === 'GET' && /\/models$/.test(url.pathname)) {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(
          JSON.stringify({
            models: [{ name: 'models/gemini-2.5-pro', supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] }],
          }),
        )
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
    })
  })
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const p = server.address().port
      resolve({ port: p, url: `http://127.0.0.1:${p}`, requests, close: () => new Promise((r) => server.close(r)) })
    })
  })
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const args = {}
  const argv = process.argv.slice(2)
  for (let i = 0; i < argv.length; i++) if (argv[i].startsWith('--')) args[argv[i].slice(2)] = argv[++i]
  const f = await startFakeGemini({ port: Number(args.port || 0), logFile: args.log || 'gemini-requests.jsonl' })
  if (args['port-file']) fs.writeFileSync(args['port-file'], String(f.port))
  process.stderr.write(`fake-gemini listening on ${f.url}\n`)
}
