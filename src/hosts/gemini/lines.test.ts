import { describe, expect, it } from 'vitest'
import { applyEntry, createDelta, createState } from '../../extract/extract.js'
import type { TranscriptEntry } from '../../transcript/types.js'
import { BOOKMARK_FEEDBACK } from '../../transcript/types.js'
import { Seen, geminiLineParser } from './lines.js'

// Records in the shapes of real 0.61 chat files (corpus/host-samples), shortened.
const TS = '2026-12-02T01:28:52.905Z'
const META = { sessionId: 'f472ee27-680a-44eb-b594-574364fa925b', projectHash: 'ab', startTime: TS, lastUpdated: TS, kind: 'main' }
const CONTEXT = {
  id: 'ctx',
  timestamp: TS,
  type: 'user',
  content: [{ text: '<session_context>\nThis is the Gemini CLI.\n- **Workspace Directories:**\n  - /w/proj\n- **Directory Structure:**\n</session_context>' }],
}
const user = (id: string, ...texts: string[]) => ({ id, timestamp: TS, type: 'user', content: texts.map((text) => ({ text })) })
const reply = (id: string, content: unknown, toolCalls?: object[]) => ({
  id,
  timestamp: TS,
  type: 'gemini',
  content,
  thoughts: [],
  tokens: { input: 100, output: 10, cached: 40, thoughts: 0, tool: 0, total: 110 },
  model: 'gemini-3.8-flash',
  ...(toolCalls ? { toolCalls } : {}),
})
const response = (id: string, name: string, output: string) => [{ functionResponse: { id, name, response: { output } } }]
const call = (id: string, name: string, args: object, output: string, extra: object = {}) => ({
  id,
  name,
  args,
  result: response(id, name, output),
  status: 'success',
  timestamp: TS,
  ...extra,
})
const WRITE = call(
  'write_file__1',
  'write_file',
  { file_path: '/w/proj/hello.txt', content: 'hello\n' },
  'Successfully created and wrote to new file: /w/proj/hello.txt.',
  {
    resultDisplay: { fileDiff: '@@ -0,0 +1,1 @@\n+hello\n', filePath: '/w/proj/hello.txt', originalContent: '', newContent: 'hello\n', isNewFile: true },
  },
)
const set = (messages: object[]) => ({ $set: { messages, lastUpdated: TS } })

/** One parser over the lines, as one read of the file. */
function entries(records: object[], seen = new Seen()): TranscriptEntry[] {
  const parse = geminiLineParser(seen)
  return records.flatMap((r, i) => parse(JSON.stringify(r), i + 1).entries)
}

function extract(records: object[], projectRoot = '/w/proj') {
  const state = createState()
  const delta = createDelta()
  for (const e of entries(records)) applyEntry(state, e, { projectRoot }, delta)
  return state
}

const kinds = (es: TranscriptEntry[]) => es.map((e) => (e.kind === 'assistant' ? `assistant:${e.block.type}` : e.kind === 'note' ? `note:${e.note}` : e.kind))

const SESSION = [
  META,
  set([CONTEXT]),
  user('u1', 'create hello.txt'),
  { $set: { lastUpdated: TS } },
  reply('g1', ''),
  reply('g1', '', [WRITE]),
  { id: 'r1', timestamp: TS, type: 'user', content: response('write_file__1', 'write_file', 'ok') },
  reply('g2', 'Done.'),
]

describe('Gemini requests', () => {
  it("takes the user's words, never the context, our hook context or a tool's response", () => {
    const got = entries([
      set([CONTEXT]),
      user('a', '<hook_context>SS-MARKER source=startup</hook_context>\n\ncreate hello.txt'),
      user('b', 'fill context', '<hook_context>BA-MARKER</hook_context>'),
      user('c', '<hook_context>SS-MARKER</hook_context>'),
      { id: 'd', timestamp: TS, type: 'user', content: response('x', 'replace', 'done') },
      { id: 'e', timestamp: TS, type: 'user', content: 'older sessions keep a string' },
      { id: 'f', timestamp: TS, type: 'user', content: 'System: Please continue.' },
    ])
    expect(got.filter((e) => e.kind === 'prompt').map((e) => (e.kind === 'prompt' ? e.text : ''))).toEqual([
      'create hello.txt',
      'fill context',
      'older sessions keep a string',
    ])
    expect(kinds(got)).toEqual(['note:meta', 'prompt', 'prompt', 'note:hook-context', 'other', 'prompt', 'note:meta'])
    expect(got[0]!.cwd).toBe('/w/proj')
  })

  it('marks our AfterAgent block so that the answer to it is not the last word', () => {
    const state = extract([
      user('a', 'fix it'),
      reply('g1', 'Fixed.'),
      user('b', `${BOOKMARK_FEEDBACK}: write .bookmark/bookmark.context.md`),
      reply('g2', 'Handoff written.'),
    ])
    expect(state.recentPrompts.map((p) => p.text)).toEqual(['fix it'])
    expect(state.lastAssistant?.text).toBe('Fixed.')
  })
})

describe('Gemini upserts and checkpoints', () => {
  it('reads a reply written twice (without, then with its calls) once', () => {
    const got = entries(SESSION)
    expect(kinds(got)).toEqual([
      'other',
      'note:meta',
      'prompt',
      'other',
      'assistant:thinking',
      'assistant:tool_use',
      'tool_result',
      'other',
      'assistant:thinking',
      'assistant:text',
    ])
    const state = extract(SESSION)
    expect(state.files['hello.txt']).toMatchObject({ op: 'created', added: 1, tools: ['Write'] })
    expect(state.usage).toMatchObject({ contextTokens: 100, outputTokens: 10, model: 'gemini-3.8-flash' })
  })

  it('reads nothing again when a resume writes the whole history as a checkpoint', () => {
    const seen = new Seen()
    entries(SESSION, seen)
    const history = [CONTEXT, user('u1', 'create hello.txt'), reply('g1', '', [WRITE]), reply('g2', 'Done.')]
    const again = entries([set(history), user('u2', 'say hi again'), reply('g3', 'hi')], seen)
    expect(kinds(again)).toEqual(['prompt', 'assistant:thinking', 'assistant:text'])
    // Kept as numbers, it comes back from JSON as it was.
    expect(entries([set(history)], new Seen(JSON.parse(JSON.stringify(seen)) as number[]))).toEqual([])
  })

  it('reads a compression checkpoint as a compaction with its summary, and not the model acknowledging it', () => {
    const summary = '<state_snapshot>\n<overall_goal>user created hello.txt</overall_goal>\n</state_snapshot>'
    const got = entries([
      ...SESSION,
      set([CONTEXT, user('s1', summary), { id: 'ack', timestamp: TS, type: 'gemini', content: [{ text: 'Got it. Thanks for the additional context!' }] }]),
    ])
    const tail = got.slice(-3)
    expect(kinds(tail)).toEqual(['compact_boundary', 'compact_summary', 'other'])
    expect(tail[1]).toMatchObject({ kind: 'compact_summary', text: summary })
  })

  it('waits for a call that has not run yet', () => {
    const seen = new Seen()
    const pending = { id: 'run_shell_command__1', name: 'run_shell_command', args: { command: 'ls' }, status: 'executing' }
    expect(kinds(entries([reply('g1', '', [pending])], seen))).toEqual(['assistant:thinking'])
    const done = { ...pending, status: 'success', result: response('run_shell_command__1', 'run_shell_command', 'Output: a\nProcess Group PGID: 1') }
    expect(kinds(entries([reply('g1', '', [done])], seen))).toEqual(['assistant:tool_use', 'tool_result'])
  })
})

describe('Gemini tools', () => {
  it('reads replace as an edit with the diff Gemini recorded', () => {
    const edit = call(
      'replace__1',
      'replace',
      { file_path: '/w/proj/a.ts', old_string: 'x', new_string: 'y', instruction: 'i' },
      'Successfully modified file: /w/proj/a.ts (2 replacements).',
      {
        resultDisplay: {
          fileDiff: 'Index: a.ts\n--- a.ts\n+++ a.ts\n@@ -1,3 +1,3 @@\n-const x = 1\n+const y = 1\n ok\n-x()\n+export function y() {}\n',
          isNewFile: false,
        },
      },
    )
    const state = extract([reply('g1', '', [edit])])
    expect(state.files['a.ts']).toMatchObject({ op: 'modified', added: 2, removed: 2, tools: ['Edit'] })
    expect(state.files['a.ts']!.hints).toContain('+fn y')
  })

  it('reads write_file over a file with the line diff against what it held', () => {
    const over = call(
      'write_file__2',
      'write_file',
      { file_path: '/w/proj/hello.txt', content: 'a\nB\nc\n' },
      'Successfully overwrote file: /w/proj/hello.txt.',
      {
        resultDisplay: { originalContent: 'a\nb\nc\n', newContent: 'a\nB\nc\n', isNewFile: false },
      },
    )
    expect(extract([reply('g1', '', [over])]).files['hello.txt']).toMatchObject({ op: 'modified', added: 1, removed: 1 })
  })

  it('reads a shell command that exited non-zero as a failed Bash call, and a later success as resolving it', () => {
    const failed = call(
      'run_shell_command__1',
      'run_shell_command',
      { command: 'npm test' },
      '<untrusted_context>\nOutput: 1 failing\nExit Code: 1\nProcess Group PGID: 7\n</untrusted_context>',
    )
    const got = entries([reply('g1', '', [failed])])
    expect(got[2]).toMatchObject({ kind: 'tool_result', isError: true, text: 'Exit code 1\nOutput: 1 failing\nExit Code: 1\nProcess Group PGID: 7' })
    const state = extract([reply('g1', '', [failed])])
    expect(state.errors).toEqual([expect.objectContaining({ tool: 'Bash', target: 'npm test', resolved: false })])
    const passed = call('run_shell_command__2', 'run_shell_command', { command: 'npm test' }, 'Output: ok\nProcess Group PGID: 8')
    expect(extract([reply('g1', '', [failed]), reply('g2', '', [passed])]).errors[0]).toMatchObject({ resolved: true })
  })

  it('runs a shell command in its dir_path', () => {
    const cmd = call('run_shell_command__1', 'run_shell_command', { command: 'touch new.txt', dir_path: '/w/proj/sub' }, 'Output: (empty)')
    expect(extract([reply('g1', '', [cmd])]).files['sub/new.txt']).toMatchObject({ op: 'created', tools: ['Bash'] })
  })

  it('names an MCP tool by its server and tool, and keeps a cancelled call as a failure', () => {
    const mcp = call('mcp_bm_echo__1', 'mcp_bm_echo', { text: 'x' }, 'ECHO:x', { displayName: 'echo (bm MCP Server)' })
    const cancelled = call('write_file__3', 'write_file', { file_path: '/w/proj/no.txt', content: 'no' }, 'cancelled', { status: 'cancelled' })
    const state = extract([reply('g1', '', [mcp, cancelled])])
    expect(state.tools).toEqual({ mcp__bm__echo: 1, Write: 1 })
    expect(state.files['no.txt']).toBeUndefined()
  })

  it('reads an error record as an API error', () => {
    const state = extract([user('a', 'go'), { id: 'e1', timestamp: TS, type: 'error', content: '[API Error: quota exceeded]' }])
    expect(state.ending).toMatchObject({ last: 'api-error', apiError: '[API Error: quota exceeded]' })
  })
})
