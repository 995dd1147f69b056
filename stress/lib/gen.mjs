/**
 * Transcript lines in the shapes Claude Code writes (the same builders as test/helpers/jsonl.ts, in plain
 * JS, with a counter per generator so every run produces the same bytes).
 */
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export function lines(sessionId, cwd) {
  let counter = 0
  const base = (type, o = {}) => {
    counter++
    return {
      parentUuid: null,
      isSidechain: o.sidechain ?? false,
      userType: 'external',
      cwd: o.cwd ?? cwd,
      sessionId,
      version: '2.1.63',
      gitBranch: 'main',
      type,
      uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
      timestamp: new Date(Date.UTC(2026, 10, 28, 10, 0, 0) + counter * 1000).toISOString(),
    }
  }
  const g = {
    prompt: (text) => ({ ...base('user'), message: { role: 'user', content: text } }),
    assistantText: (text, usage) => ({
      ...base('assistant'),
      requestId: 'req_stress',
      message: {
        id: `msg_${counter}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text }],
        stop_reason: null,
        usage: usage ?? { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 1000 },
      },
    }),
    toolUse: (id, name, input) => ({
      ...base('assistant'),
      requestId: 'req_stress',
      message: {
        id: `msg_${counter}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id, name, input }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    }),
    toolResult: (id, content, o = {}) => ({
      ...base('user'),
      message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content, ...(o.isError ? { is_error: true } : {}) }] },
      toolUseResult: o.result ?? (o.isError ? `Error: ${content}` : { stdout: content, stderr: '', interrupted: false, isImage: false }),
    }),
    call: (id, name, input, result = 'ok', o = {}) => [
      g.toolUse(id, name, input),
      g.toolResult(id, typeof result === 'string' ? result : 'ok', { ...o, result: typeof result === 'string' ? undefined : result }),
    ],
    /** One ordinary turn: a request, a Write of `file`, a task, and a reply. */
    turn: (n, file, body) => [
      g.prompt(`request ${n}: refactor module ${n} and keep the tests green`),
      ...g.call(
        `w${sessionId.slice(0, 4)}${n}`,
        'Write',
        { file_path: join(cwd, file), content: body ?? `export const v${n} = ${n}\n` },
        { type: 'create', filePath: join(cwd, file), content: body ?? '', structuredPatch: [], originalFile: null },
      ),
      g.assistantText(`Done with request ${n}.`),
    ],
  }
  return g
}

export function jsonl(records) {
  return (
    records
      .flat()
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n'
  )
}

export function writeTranscript(path, records) {
  writeFileSync(path, jsonl(records))
}

export function appendTranscript(path, records) {
  appendFileSync(path, jsonl(records))
}

/** Turn `n` of a large generated session: a request, a Write of a 60-line module, its result, a reply. */
export function moduleTurn(n, cwd, sessionId) {
  const ts = new Date(Date.UTC(2026, 10, 28, 10, 0, 0) + n * 1000).toISOString()
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.63', gitBranch: 'main', timestamp: ts }
  const file = join(cwd, 'src', `mod${n % 400}.ts`)
  const body = Array.from({ length: 60 }, (_, i) => `export function f${n}_${i}(x: number): number { return x * ${i} }`).join('\n')
  return (
    [
      { ...base, type: 'user', uuid: `u${n}`, message: { role: 'user', content: `request ${n}: refactor module ${n % 400} and keep the tests green` } },
      {
        ...base,
        type: 'assistant',
        uuid: `a${n}`,
        message: {
          id: `msg_${n}`,
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: `t${n}`, name: 'Write', input: { file_path: file, content: body } }],
          usage: { input_tokens: 10, output_tokens: 50, cache_read_input_tokens: 50000 },
        },
      },
      {
        ...base,
        type: 'user',
        uuid: `r${n}`,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: 'File created successfully' }] },
        toolUseResult: { type: 'create', filePath: file, content: body, structuredPatch: [], originalFile: null },
      },
      {
        ...base,
        type: 'assistant',
        uuid: `b${n}`,
        message: {
          id: `msg_${n}b`,
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: `Done with module ${n % 400}. `.repeat(20) }],
        },
      },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n'
  )
}

/**
 * A large transcript (also what bench/capture.mjs measures): `mb` megabytes of turns that each write a
 * module, so a capture of it does real work in every stage (read, extract, diff, snapshot, trail).
 */
export function bigTranscript(path, cwd, sessionId, mb) {
  writeFileSync(path, '')
  let size = 0
  let n = 0
  let chunk = ''
  while (size < mb * 1024 * 1024) {
    n++
    const t = moduleTurn(n, cwd, sessionId)
    chunk += t
    size += Buffer.byteLength(t)
    if (chunk.length > 4 << 20) {
      appendFileSync(path, chunk)
      chunk = ''
    }
  }
  appendFileSync(path, chunk)
  return { bytes: size, turns: n }
}
