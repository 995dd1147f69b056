import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/tmp.js'
import { sniffHost } from '../codex/sniff.js'
import { hostOf } from '../index.js'
import { GEMINI_CONTEXT_CHARS, geminiHost } from './host.js'
import { geminiSessionId } from './sniff.js'

const SID = 'b8477778-1e6b-4fde-b1ac-6fabfa2cce57'

describe('geminiHost answers', () => {
  it('reads a 0.61 BeforeAgent payload, its prompt without our SessionStart context glued in front', () => {
    const { event, notes } = geminiHost.readPayload(
      JSON.stringify({
        session_id: SID,
        transcript_path: `/h/.gemini/tmp/proj/chats/session-2026-12-02T01-23-${SID.slice(0, 8)}.jsonl`,
        cwd: '/w/proj',
        hook_event_name: 'BeforeAgent',
        timestamp: '2026-12-02T01:23:11.275Z',
        prompt: '<hook_context>SS-MARKER-123 source=startup</hook_context>\n\ncreate hello.txt',
      }),
      false,
    )
    expect(notes).toEqual([])
    expect(event).toEqual({
      sessionId: SID,
      transcript: `/h/.gemini/tmp/proj/chats/session-2026-12-02T01-23-${SID.slice(0, 8)}.jsonl`,
      cwd: '/w/proj',
      eventName: 'BeforeAgent',
      prompt: 'create hello.txt',
    })
  })

  it('reads AfterAgent without taking its concatenated prompt_response as the last message', () => {
    const { event } = geminiHost.readPayload(
      JSON.stringify({ session_id: SID, hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'Done.\nDone.', stop_hook_active: false }),
      false,
    )
    expect(event).toEqual({ sessionId: SID, eventName: 'AfterAgent', prompt: 'p', stopHookActive: false })
  })

  it('answers in the JSON shapes 0.61 honours', () => {
    expect(geminiHost.inject('restore', 'R')).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'R' } })
    expect(geminiHost.inject('check', 'C')).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'C' } })
    expect(geminiHost.block('write the handoff')).toEqual({ decision: 'block', reason: 'write the handoff' })
    expect(geminiHost.headless({ GEMINI_SESSION_ID: SID })).toBe(false)
    expect(hostOf('gemini')).toBe(geminiHost)
  })

  it('keeps its context under GEMINI_CONTEXT_CHARS (Gemini passes any size), cut at a line end', () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(60)}`).join('\n')
    const out = (geminiHost.inject('check', text) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
    expect(out.length).toBeLessThanOrEqual(GEMINI_CONTEXT_CHARS)
    expect(out.length).toBeGreaterThan(GEMINI_CONTEXT_CHARS / 2)
    expect(out.startsWith('line 0 ')).toBe(true)
    expect(text.length).toBeGreaterThan(GEMINI_CONTEXT_CHARS)
  })
})

describe('Gemini chats: sniffing', () => {
  it('tells both formats and a metadata-less chat from Claude Code and Codex lines', () => {
    expect(sniffHost(JSON.stringify({ sessionId: SID, projectHash: 'ab', startTime: 't', lastUpdated: 't', kind: 'main' }))).toBe('gemini')
    expect(sniffHost(`{\n  "sessionId": "${SID}",\n  "projectHash": "ab",\n  "messages": [\n`)).toBe('gemini')
    expect(sniffHost(JSON.stringify({ id: 'x', timestamp: 't', type: 'user', content: 'add a log' }))).toBe('gemini')
    expect(sniffHost(JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, uuid: 'u', sessionId: SID }))).toBe('claude')
    expect(sniffHost(JSON.stringify({ type: 'summary', summary: 's', leafUuid: 'l' }))).toBe('claude')
    expect(geminiSessionId(`{\n  "sessionId": "${SID}",\n`)).toBe(SID)
  })
})

describe('Gemini chats: discovery', () => {
  function home(): { env: NodeJS.ProcessEnv; chats: string; root: string } {
    const root = tempDir('gemini-home-')
    const chats = join(root, '.gemini', 'tmp', 'proj', 'chats')
    mkdirSync(chats, { recursive: true })
    return { env: { HOME: join(root, 'nowhere'), GEMINI_CLI_HOME: root }, chats, root }
  }
  const meta = (sid: string) => JSON.stringify({ sessionId: sid, projectHash: 'ab', startTime: 't', lastUpdated: 't', kind: 'main' }) + '\n'

  it("finds a session's file by its id, not the resume's stub of the same id", async () => {
    const { env, chats } = home()
    const real = join(chats, `session-2026-12-02T01-28-${SID.slice(0, 8)}.jsonl`)
    const stub = join(chats, `session-2026-12-02T01-29-${SID.slice(0, 8)}.jsonl`)
    writeFileSync(real, meta(SID) + JSON.stringify({ id: 'u', type: 'user', content: [{ text: 'create hello.txt' }] }) + '\n')
    writeFileSync(stub, meta(SID))
    writeFileSync(join(chats, 'session-2026-12-02T01-30-aaaaaaaa.jsonl'), meta('aaaaaaaa-0000-0000-0000-000000000000'))
    expect(await geminiHost.findTranscript('/w/proj', SID, env)).toEqual({ path: real, sessionId: SID })
    await expect(geminiHost.findTranscript('/w/proj', 'cccccccc-0000-0000-0000-000000000000', env)).rejects.toThrow(/no Gemini CLI chat for session/)
  })

  it("picks the newest chat of the folder through projects.json, or the folder's hash (older CLIs)", async () => {
    const { env, chats, root } = home()
    writeFileSync(join(root, '.gemini', 'projects.json'), JSON.stringify({ projects: { '/w/proj': 'proj' } }))
    const older = join(chats, 'session-2026-12-02T01-28-11111111.jsonl')
    const newer = join(chats, 'session-2026-12-02T01-29-22222222.jsonl')
    writeFileSync(older, meta('11111111-0000-0000-0000-000000000000'))
    writeFileSync(newer, meta('22222222-0000-0000-0000-000000000000'))
    utimesSync(older, new Date(1_000_000), new Date(1_000_000))
    const found = await geminiHost.findTranscript('/w/proj', undefined, env)
    expect(found).toMatchObject({ path: newer, sessionId: '22222222-0000-0000-0000-000000000000' })
    expect(found.note).toMatch(/most recently written Gemini CLI chat/)
    const hashed = join(root, '.gemini', 'tmp', createHash('sha256').update('/w/old').digest('hex'), 'chats')
    mkdirSync(hashed, { recursive: true })
    writeFileSync(join(hashed, 'session-2026-01-10T20-00-fa4593e0.json'), `{\n  "sessionId": "fa4593e0-f7e1-4dd1-b656-da95fb4d60fa",\n  "messages": []\n}`)
    expect(await geminiHost.findTranscript('/w/old', undefined, env)).toMatchObject({ sessionId: 'fa4593e0-f7e1-4dd1-b656-da95fb4d60fa' })
    await expect(geminiHost.findTranscript('/w/none', undefined, env)).rejects.toThrow(/no Gemini CLI chat of \/w\/none/)
  })
})
