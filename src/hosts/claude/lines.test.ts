import { describe, expect, it } from 'vitest'
import { assistantText, compactBoundary, compactSummary, meta, prompt, toolResult, toolUse } from '../../../test/helpers/jsonl.js'
import { parseLine } from './lines.js'

const one = (record: unknown) => parseLine(JSON.stringify(record), 1)

describe('parseLine: user lines', () => {
  it.each([
    ['a typed prompt', prompt('fix the parser'), 'prompt'],
    ['a prompt with text blocks', { ...prompt('x'), message: { role: 'user', content: [{ type: 'text', text: 'add tests' }] } }, 'prompt'],
    ['a meta line', meta('<local-command-caveat>Caveat</local-command-caveat>'), 'note'],
    ['an interrupt', prompt('[Request interrupted by user for tool use]'), 'note'],
    ['command output', prompt('<local-command-stdout>Compacted</local-command-stdout>'), 'note'],
    ['a /compact command', prompt('<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>'), 'note'],
    ['a task notification', prompt('<task-notification>\n<task-id>a1</task-id></task-notification>'), 'note'],
    ['a teammate message', prompt('<teammate-message teammate_id="x">done</teammate-message>'), 'note'],
    ['a compact summary flag', compactSummary(), 'compact_summary'],
    ['a compact summary by text', prompt('This session is being continued from a previous conversation that ran out of context.'), 'compact_summary'],
    ['only a system reminder (hook context)', prompt('<system-reminder>\nstuff\n</system-reminder>'), 'note'],
    ['a notification origin', { ...prompt('Agent finished'), origin: { kind: 'task-notification' } }, 'note'],
  ])('%s', (_name, record, kind) => {
    const r = one(record)
    expect(r.ok).toBe(true)
    expect(r.entries.map((e) => e.kind)).toEqual([kind])
  })

  it('keeps a custom slash command as a request, with its arguments', () => {
    const r = one(
      prompt(
        '<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app</command-args>',
      ),
    )
    expect(r.entries[0]).toMatchObject({ kind: 'prompt', text: '/orchestrator create TODO app', command: 'orchestrator' })
  })

  it("takes the team lead's teammate messages as requests, not teammates' reports or protocol messages", () => {
    // A teammate's session (Claude Code 2.1.x agent teams): its task assignment comes from the lead.
    const lead = one(
      prompt(
        '<teammate-message teammate_id="team-lead" summary="Analyze WebFrogger">\nYou are the Game Designer.\n\nClaim Task #1.\n</teammate-message>\n\n<teammate-message teammate_id="team-lead">\n{"type":"shutdown_request","requestId":"r1"}\n</teammate-message>',
      ),
    )
    expect(lead.entries).toEqual([expect.objectContaining({ kind: 'prompt', text: 'You are the Game Designer.\n\nClaim Task #1.', from: 'team-lead' })])
    // The lead's own session (cc-2.1.41-agent-teams line 158): reports from teammates and idle notifications.
    const report = one(
      prompt(
        '<teammate-message teammate_id="proxy-fix" color="green" summary="Task #2 done">\nTask #2 done.\n</teammate-message>\n\n<teammate-message teammate_id="proxy-fix" color="green">\n{"type":"idle_notification","from":"proxy-fix","idleReason":"available"}\n</teammate-message>',
      ),
    )
    expect(report.entries).toEqual([expect.objectContaining({ kind: 'note', note: 'teammate', reports: [{ from: 'proxy-fix', text: 'Task #2 done.' }] })])
    // The team's own notices (`teammate_id="system"`) carry no report.
    const system = one(
      prompt('<teammate-message teammate_id="system">\n{"type":"teammate_terminated","message":"proxy-fix has shut down."}\n</teammate-message>'),
    )
    expect(system.entries).toEqual([expect.not.objectContaining({ reports: expect.anything() })])
  })

  it('strips IDE and reminder wrappers from a typed prompt', () => {
    const r = one(prompt('<ide_opened_file>The user opened a.ts</ide_opened_file> why does this fail?'))
    expect(r.entries[0]).toMatchObject({ kind: 'prompt', text: 'why does this fail?' })
  })

  it('splits a line with two tool results into two entries', () => {
    const rec = {
      ...toolResult('t1', 'a'),
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'a' },
          { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'b' }], is_error: true },
        ],
      },
    }
    const r = one(rec)
    expect(r.entries).toMatchObject([
      { kind: 'tool_result', toolUseId: 't1', isError: false, text: 'a', result: undefined },
      { kind: 'tool_result', toolUseId: 't2', isError: true, text: 'b' },
    ])
  })

  it('a message typed while a tool ran, on the tool result line, is a request after the result', () => {
    // As Claude Code 2.1.29 writes it (corpus cc-2.1.29-image-compact1-062a8bdd line 566).
    const text = "and let's think about how we consolidate the agent-specific hook types with these if possible"
    const rec = {
      ...toolResult('t1', 'updated'),
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'updated' },
          { type: 'text', text },
        ],
      },
    }
    expect(one(rec).entries).toMatchObject([
      { kind: 'tool_result', toolUseId: 't1', text: 'updated' },
      { kind: 'prompt', text },
    ])
    // An interrupt marker there is a note, as anywhere.
    const interrupted = { ...rec, message: { ...rec.message, content: [rec.message.content[0], { type: 'text', text: '[Request interrupted by user]' }] } }
    expect(one(interrupted).entries.map((e) => e.kind)).toEqual(['tool_result', 'note'])
  })

  it('marks sidechain lines', () => {
    expect(one(prompt('sub', { sidechain: true })).entries[0]).toMatchObject({ kind: 'prompt', sidechain: true })
  })
})

describe('parseLine: other records', () => {
  it('reads assistant blocks, model and usage', () => {
    const r = one(assistantText('done', { model: 'claude-opus-4-1', msgId: 'msg_1' }))
    expect(r.entries[0]).toMatchObject({
      kind: 'assistant',
      messageId: 'msg_1',
      model: 'claude-opus-4-1',
      block: { type: 'text', text: 'done' },
      usage: { input: 10, output: 5, cacheRead: 1000, cacheCreation: 20 },
    })
  })

  it('reads tool_use blocks and tolerates a malformed tool name', () => {
    const r = one(toolUse('toolu_1', 'Task" >\n<parameter name="description', { x: 1 }))
    expect(r.entries[0]).toMatchObject({ kind: 'assistant', block: { type: 'tool_use', id: 'toolu_1' } })
  })

  it('reads compact and microcompact boundaries', () => {
    expect(one(compactBoundary({ trigger: 'manual', preTokens: 1234 })).entries[0]).toMatchObject({
      kind: 'compact_boundary',
      micro: false,
      trigger: 'manual',
      preTokens: 1234,
    })
    expect(one({ type: 'system', subtype: 'microcompact_boundary', microcompactMetadata: { trigger: 'auto', preTokens: 9 } }).entries[0]).toMatchObject({
      kind: 'compact_boundary',
      micro: true,
    })
  })

  it.each([
    [{ type: 'summary', summary: 'Fix parser', leafUuid: 'x' }, 'title'],
    [{ type: 'custom-title', customTitle: 'My title', sessionId: 's' }, 'title'],
    [{ type: 'last-prompt', lastPrompt: 'go', sessionId: 's' }, 'last_prompt'],
    [{ type: 'pr-link', prNumber: 4, prUrl: 'https://example.invalid/pr/4' }, 'pr_link'],
    [{ type: 'file-history-snapshot', messageId: 'm', snapshot: {} }, 'other'],
    [{ type: 'queue-operation', operation: 'enqueue' }, 'other'],
    [{ type: 'progress', data: { type: 'hook_progress' } }, 'other'],
    [{ type: 'attachment', attachment: { type: 'hook_additional_context', content: ['x'] } }, 'other'],
    [{ type: 'some-future-type', x: 1 }, 'other'],
  ])('%j -> %s', (record, kind) => {
    expect(one(record).entries[0]?.kind).toBe(kind)
  })

  it.each([
    ['not json', 'hello'],
    ['truncated', '{"type":"user","message":{"role":'],
    ['an array', '[1,2]'],
    ['no type', '{"a":1}'],
    ['user without message', '{"type":"user"}'],
    ['assistant with a string message', '{"type":"assistant","message":"x"}'],
  ])('skips %s', (_n, text) => {
    expect(parseLine(text, 1)).toEqual({ entries: [], ok: false })
  })

  it('treats blank lines as nothing, not as errors', () => {
    expect(parseLine('   ', 1)).toEqual({ entries: [], ok: true })
  })
})
