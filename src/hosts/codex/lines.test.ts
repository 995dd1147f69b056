import { describe, expect, it } from 'vitest'
import { applyEntry, createDelta, createState } from '../../extract/extract.js'
import type { TranscriptEntry } from '../../transcript/types.js'
import { BOOKMARK_FEEDBACK } from '../../transcript/types.js'
import { parseLine } from './lines.js'

const TS = '2026-12-02T01:28:34.125Z'
const rec = (type: string, payload: object, extra: object = {}): string => JSON.stringify({ timestamp: TS, ...extra, type, payload })
const event = (payload: object): string => rec('event_msg', payload)
const item = (payload: object): string => rec('response_item', payload)
const completed = (it: object): string => event({ type: 'item_completed', thread_id: 't', turn_id: 'u', item: it })

function entries(...lines: string[]): TranscriptEntry[] {
  return lines.flatMap((l, i) => parseLine(l, i + 1).entries)
}

function extract(lines: string[], projectRoot = '/w/proj') {
  const state = createState()
  const delta = createDelta()
  lines.forEach((l, i) => {
    for (const e of parseLine(l, i + 1).entries) applyEntry(state, e, { projectRoot }, delta)
  })
  return state
}

const META = rec('session_meta', { id: 'sid-1', cwd: '/w/proj', cli_version: '0.142.2', git: { branch: 'main' }, base_instructions: { text: 'You are Codex' } })
const META_171 = rec('session_meta', { session_id: 'sid-2', id: 'sid-2', cwd: '/w/proj', cli_version: '0.171.0', originator: 'codex_exec' }, { ordinal: 0 })

describe('Codex requests', () => {
  it('takes the request from user_message (0.14x) and UserMessage (0.171), never from the response_item copy', () => {
    const got = entries(
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'please push' }] }),
      event({ type: 'user_message', message: 'please push', images: [], text_elements: [] }),
      item({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'create hello.txt' }],
        internal_chat_message_metadata_passthrough: { content_item_metadata: [{ provenance: { type: 'user' } }] },
      }),
      completed({ type: 'UserMessage', id: 'x', content: [{ type: 'text', text: 'create hello.txt', text_elements: [] }] }),
    )
    expect(got.filter((e) => e.kind === 'prompt').map((e) => (e.kind === 'prompt' ? e.text : ''))).toEqual(['please push', 'create hello.txt'])
  })

  it('never takes hook context, environment notes, AGENTS.md or a Stop reason for a request', () => {
    const dev = (text: string, kinds: string[]) =>
      item({
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text }],
        internal_chat_message_metadata_passthrough: { content_item_kinds: kinds, content_item_metadata: [{ provenance: { type: 'harness', hook: true } }] },
      })
    const got = entries(
      dev('SS-MARKER-123 source=startup', ['hooks.additional_context']),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/w/proj</cwd>\n</environment_context>' }] }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '# AGENTS.md instructions for /w/proj\n\n<INSTRUCTIONS>…' }] }),
      item({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<hook_prompt hook_run_id="stop:10:/c/hooks.json">write notes.md</hook_prompt>' }],
      }),
      completed({ type: 'HookPrompt', id: 'm', fragments: [{ text: 'write notes.md', hookRunId: 'stop:10:/c/hooks.json' }] }),
      event({ type: 'user_message', message: '<hook_prompt hook_run_id="stop:1">x</hook_prompt>' }),
    )
    expect(got.some((e) => e.kind === 'prompt')).toBe(false)
    expect(got.filter((e) => e.kind === 'note').map((e) => (e.kind === 'note' ? e.note : ''))).toEqual(['hook-context', 'hook-context'])
  })

  it("marks our own Stop block, so that the model's answer to it is not the session's last reply", () => {
    const state = extract([
      META_171,
      completed({ type: 'UserMessage', id: 'a', content: [{ type: 'text', text: 'fix the parser' }] }),
      completed({ type: 'AgentMessage', id: 'm1', content: [{ type: 'Text', text: 'Fixed the parser.' }] }),
      completed({
        type: 'HookPrompt',
        id: 'h',
        fragments: [{ text: `${BOOKMARK_FEEDBACK} to .bookmark/bookmark.context.md`, hookRunId: 'stop:1:/c/hooks.json' }],
      }),
      completed({ type: 'AgentMessage', id: 'm2', content: [{ type: 'Text', text: 'Handoff written.' }] }),
    ])
    expect(state.lastAssistant?.text).toBe('Fixed the parser.')
  })

  it('counts an interrupted turn, and an error event as an API error', () => {
    const state = extract([
      META,
      event({ type: 'turn_aborted', turn_id: 't', reason: 'interrupted' }),
      event({ type: 'error', message: 'stream disconnected before completion' }),
    ])
    expect(state.counts.interrupts).toBe(1)
    expect(state.counts.apiErrors).toBe(1)
  })
})

describe('Codex replies, models, session facts', () => {
  it('takes replies from the events only, models from turn_context, cwd, branch and version from session_meta', () => {
    const state = extract([
      META,
      rec('turn_context', { turn_id: 't1', cwd: '/w/proj', model: 'gpt-5.3-codex-spark' }),
      event({ type: 'agent_message', message: 'Done. Pushed the branch.', phase: 'final_answer' }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done. Pushed the branch.' }] }),
      rec('turn_context', { turn_id: 't2', cwd: '/w/proj', model: 'gpt-5.5' }),
      event({
        type: 'token_count',
        info: { last_token_usage: { input_tokens: 22606, cached_input_tokens: 2432, output_tokens: 351 }, model_context_window: 258400 },
      }),
    ])
    expect(state.models).toEqual({ 'gpt-5.3-codex-spark': 1, 'gpt-5.5': 1 })
    expect(state.lastAssistant?.text).toBe('Done. Pushed the branch.')
    expect(state.counts.prompts).toBe(0)
    expect([state.cwd, state.branch, state.versions]).toEqual(['/w/proj', 'main', ['0.142.2']])
    expect(state.usage).toMatchObject({ contextTokens: 22606, outputTokens: 351 })
  })

  it('turns a compacted record into one compaction, not its event twin', () => {
    const state = extract([
      META_171,
      rec('compacted', { message: 'Another language model started to solve this problem…', replacement_history: [] }),
      completed({ type: 'ContextCompaction', id: 'c' }),
      event({ type: 'context_compacted' }),
    ])
    expect(state.compactions).toHaveLength(1)
  })
})

describe('Codex commands', () => {
  const call = (id: string, cmd: string, workdir?: string) =>
    item({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, ...(workdir ? { workdir } : {}), yield_time_ms: 1000 }), call_id: id })
  const out = (id: string, code: number, text: string) =>
    item({
      type: 'function_call_output',
      call_id: id,
      output: `Chunk ID: 223b39\nWall time: 0.2959 seconds\nProcess exited with code ${code}\nOriginal token count: 29\nOutput:\n${text}`,
    })

  it('makes exec_command a Bash call whose exit code decides the error, and the git rules read it', () => {
    const state = extract([
      META,
      call('c1', 'rg -n "claude-trace" bunfig.toml', '/w/proj'),
      out('c1', 2, 'rg: bunfig.toml: No such file or directory (os error 2)\n'),
      call('c4', 'bun run build', '/w/proj'),
      out('c4', 1, 'error: script "build" exited with code 1\n'),
      call('c2', 'git commit -m "Remove the trace plugin"'),
      out('c2', 0, '[main 1a2b3c4] Remove the trace plugin\n 2 files changed, 3 deletions(-)\n'),
      call('c3', 'echo hello > hello.txt'),
      out('c3', 0, ''),
    ])
    expect(state.tools).toEqual({ Bash: 4 })
    // A search that found nothing is exploration, not an error (issue 18); the failed build is one.
    expect(state.errors.map((e) => [e.tool, e.target, e.message])).toEqual([['Bash', 'bun run build', 'Exit code 1: error: script "build" exited with code 1']])
    expect(state.git.map((g) => g.event)).toContainEqual(expect.objectContaining({ kind: 'commit', hash: '1a2b3c4', message: 'Remove the trace plugin' }))
    expect(state.files['hello.txt']).toMatchObject({ op: 'created', tools: ['Bash'] })
  })

  it('takes the 0.171 CommandExecution item as the result, and its function_call_output twin adds nothing', () => {
    const state = extract([
      META_171,
      call('call_fake_1', 'false'),
      completed({
        type: 'CommandExecution',
        id: 'call_fake_1',
        command: ['/bin/bash', '-lc', 'false'],
        status: 'failed',
        aggregated_output: 'boom',
        exit_code: 1,
      }),
      out('call_fake_1', 1, 'boom'),
    ])
    expect(state.errors).toHaveLength(1)
    expect(state.errors[0]).toMatchObject({ tool: 'Bash', target: 'false', message: 'Exit code 1: boom' })
  })

  it('reads the older shell call (argv and JSON output) and update_plan as the task list', () => {
    const state = extract([
      META,
      item({
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'touch notes.md'], workdir: '/w/proj' }),
        call_id: 's1',
      }),
      item({ type: 'function_call_output', call_id: 's1', output: JSON.stringify({ output: '', metadata: { exit_code: 0, duration_seconds: 0.1 } }) }),
      item({
        type: 'function_call',
        name: 'update_plan',
        arguments: JSON.stringify({
          plan: [
            { step: 'Inspect references', status: 'completed' },
            { step: 'Delete the plugin', status: 'in_progress' },
          ],
        }),
        call_id: 'p1',
      }),
      item({ type: 'function_call_output', call_id: 'p1', output: 'Plan updated' }),
    ])
    expect(state.files['notes.md']).toMatchObject({ op: 'created' })
    expect(state.todos).toEqual([
      { content: 'Inspect references', status: 'completed' },
      { content: 'Delete the plugin', status: 'in_progress' },
    ])
  })

  it('names MCP calls mcp__server__tool and takes a failed MCP result as an error', () => {
    const state = extract([
      META,
      item({ type: 'function_call', name: 'ask_question', namespace: 'mcp__deepwiki', arguments: '{"repoName":"a/b"}', call_id: 'm1' }),
      event({
        type: 'mcp_tool_call_end',
        call_id: 'm1',
        invocation: { server: 'deepwiki', tool: 'ask_question' },
        result: { Err: 'tool call failed: timeout' },
      }),
      item({ type: 'function_call', name: '_create_issue', namespace: 'mcp__codex_apps__github', arguments: '{}', call_id: 'm2' }),
      item({ type: 'function_call_output', call_id: 'm2', output: [{ type: 'input_text', text: '{"url":"https://x"}' }] }),
    ])
    expect(Object.keys(state.tools)).toEqual(['mcp__deepwiki__ask_question', 'mcp__codex_apps__github_create_issue'])
    expect(state.errors.map((e) => [e.tool, e.message])).toEqual([['mcp__deepwiki__ask_question', 'tool call failed: timeout']])
  })
})

describe('Codex apply_patch', () => {
  const patchCall = (id: string, patch: string) => item({ type: 'custom_tool_call', status: 'completed', call_id: id, name: 'apply_patch', input: patch })
  const patchOut = (id: string, text: string) => item({ type: 'custom_tool_call_output', call_id: id, output: text })

  it('records the files of the patch text with a line diff and hints, relative to the session folder', () => {
    const state = extract([
      META,
      patchCall(
        'p1',
        '*** Begin Patch\n*** Add File: src/agg.js\n+export function getScore(x) {\n+  return x\n+}\n*** Update File: README.md\n@@\n-old line\n+new line\n+another\n*** End Patch',
      ),
      patchOut('p1', 'Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA src/agg.js\nM README.md\n'),
    ])
    expect(state.files['src/agg.js']).toMatchObject({ op: 'created', added: 3, removed: 0, tools: ['apply_patch'] })
    expect(state.files['src/agg.js']!.hints).toContain('+fn getScore')
    expect(state.files['README.md']).toMatchObject({ op: 'modified', added: 2, removed: 1 })
  })

  it("prefers Codex's recorded change list (absolute paths), keeps a sibling worktree apart, and counts once", () => {
    const state = extract([
      META,
      patchCall('p2', '*** Begin Patch\n*** Update File: /w/proj/docs/a.mdx\n@@\n+x\n*** Add File: /w/proj__worktrees/b/notes.md\n+n\n*** End Patch'),
      event({
        type: 'patch_apply_end',
        call_id: 'p2',
        success: true,
        stdout: 'Success.',
        changes: {
          '/w/proj/docs/a.mdx': { type: 'update', unified_diff: '@@ -1,1 +1,2 @@\n a\n+x\n', move_path: null },
          '/w/proj__worktrees/b/notes.md': { type: 'add', content: 'n\n' },
        },
      }),
      patchOut('p2', 'Exit code: 0\nOutput:\nSuccess.'),
    ])
    expect(state.files['docs/a.mdx']).toMatchObject({ op: 'modified', added: 1, removed: 0, changes: 1 })
    expect(Object.keys(state.outside)).toEqual(['/w/proj__worktrees/b/notes.md'])
  })

  it('follows a move and leaves a failed patch out, with its first file as the error target', () => {
    const state = extract([
      META,
      patchCall('p3', '*** Begin Patch\n*** Update File: src/old.ts\n*** Move to: src/new.ts\n@@\n-a\n+b\n*** End Patch'),
      patchOut('p3', 'Exit code: 0\nOutput:\nSuccess.'),
      patchCall('p4', '*** Begin Patch\n*** Update File: src/missing.ts\n@@\n-x\n+y\n*** End Patch'),
      patchOut('p4', 'apply_patch verification failed: Failed to find expected lines in src/missing.ts'),
    ])
    expect(Object.keys(state.files)).toEqual(['src/new.ts'])
    expect(state.files['src/new.ts']).toMatchObject({ op: 'moved', from: 'src/old.ts', added: 1, removed: 1 })
    expect(state.errors.map((e) => [e.tool, e.target])).toEqual([['apply_patch', 'src/missing.ts']])
  })

  it('reads the 0.171 FileChange item as the result', () => {
    const state = extract([
      META_171,
      patchCall('call_fake_3', '*** Begin Patch\n*** Add File: patched.txt\n+patched line 1\n+patched line 2\n*** End Patch'),
      completed({
        type: 'FileChange',
        id: 'call_fake_3',
        changes: { '/w/proj/patched.txt': { type: 'add', content: 'patched line 1\npatched line 2\n' } },
        status: 'completed',
        stdout: 'Success.',
      }),
      patchOut('call_fake_3', 'Exit code: 0\nOutput:\nSuccess.'),
    ])
    expect(state.files['patched.txt']).toMatchObject({ op: 'created', added: 2, changes: 1 })
  })
})

describe('parseLine', () => {
  it('never throws: junk lines are skipped, unknown records only counted', () => {
    expect(parseLine('not json', 1)).toEqual({ entries: [], ok: false })
    expect(parseLine('{"type":', 1).ok).toBe(false)
    expect(parseLine('[1,2]', 1).ok).toBe(false)
    expect(parseLine(rec('world_state', { full: true }), 3).entries).toEqual([expect.objectContaining({ kind: 'other', type: 'world_state', line: 3 })])
    expect(parseLine(event({ type: 'item_completed', item: { type: 'CommandExecution' } }), 1).entries[0]).toMatchObject({ kind: 'other' })
  })
})
