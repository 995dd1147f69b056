import { describe, expect, it } from 'vitest'
import { hostOf } from '../index.js'
import { claudeHost } from './host.js'

describe('Claude Code as a host', () => {
  it('reads its payload into the shared event, field by field', () => {
    const payload = {
      session_id: 's1',
      transcript_path: '/t/s1.jsonl',
      cwd: '/p',
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'Done.',
      permission_mode: 'default',
    }
    expect(claudeHost.readPayload(JSON.stringify(payload), false)).toEqual({
      event: { sessionId: 's1', transcript: '/t/s1.jsonl', cwd: '/p', eventName: 'Stop', stopHookActive: false, lastAssistantMessage: 'Done.' },
      notes: [],
    })
    const start = claudeHost.readPayload('{"hook_event_name":"SessionStart","source":"compact","trigger":"auto","prompt":"p"}', false)
    expect(start.event).toEqual({ eventName: 'SessionStart', source: 'compact', trigger: 'auto', prompt: 'p' })
  })

  it('answers in the shapes Claude Code honours', () => {
    expect(claudeHost.inject('restore', 'ctx')).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } })
    expect(claudeHost.inject('check', 'note')).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'note' } })
    expect(claudeHost.block('write it')).toEqual({ decision: 'block', reason: 'write it' })
  })

  it('is the host of the id a worker thread is given', () => {
    expect(hostOf('claude')).toBe(claudeHost)
    expect(claudeHost.parseLine('{"type":"user","message":{"role":"user","content":"hello there"}}', 1).entries[0]).toMatchObject({
      kind: 'prompt',
      text: 'hello there',
    })
  })
})
