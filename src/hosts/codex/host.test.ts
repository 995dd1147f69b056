import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/tmp.js'
import { hostOf } from '../index.js'
import { CODEX_CONTEXT_BYTES, SUPERSEDES, codexHost, withinBytes } from './host.js'
import { codexSessionId, sniffHost } from './sniff.js'
import { nonInteractiveArgs } from './headless.js'

const SID = '01a2345e-2144-7cf3-9766-01b9ef8653f7'

describe('Codex CLI as a host', () => {
  it('is the host of id codex', () => {
    expect(hostOf('codex')).toBe(codexHost)
    expect([codexHost.id, codexHost.name]).toEqual(['codex', 'Codex CLI'])
  })

  it('reads a Stop and a SessionStart payload into the shared event, its extra fields ignored', () => {
    const stop = {
      session_id: SID,
      turn_id: '01a2345e-217a',
      transcript_path: `/c/sessions/2026/12/02/rollout-2026-12-02T01-28-33-${SID}.jsonl`,
      cwd: '/w/proj',
      hook_event_name: 'Stop',
      model: 'gpt-5.5',
      permission_mode: 'bypassPermissions',
      stop_hook_active: true,
      last_assistant_message: 'Done.',
    }
    expect(codexHost.readPayload(JSON.stringify(stop), false)).toEqual({
      event: { sessionId: SID, transcript: stop.transcript_path, cwd: '/w/proj', eventName: 'Stop', stopHookActive: true, lastAssistantMessage: 'Done.' },
      notes: [],
    })
    // transcript_path is nullable in Codex's schema: absent, not a complaint.
    const start = codexHost.readPayload(
      JSON.stringify({ session_id: SID, transcript_path: null, cwd: '/w/proj', hook_event_name: 'SessionStart', source: 'compact' }),
      false,
    )
    expect(start).toEqual({ event: { sessionId: SID, cwd: '/w/proj', eventName: 'SessionStart', source: 'compact' }, notes: [] })
  })

  it('answers in exactly the keys Codex accepts (any other key drops the whole output)', () => {
    expect(codexHost.inject('restore', 'R')).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: `${SUPERSEDES}\n\nR` } })
    expect(codexHost.inject('check', 'C')).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'C' } })
    expect(codexHost.block('write the handoff')).toEqual({ decision: 'block', reason: 'write the handoff' })
    expect(codexHost.writeTool).toBe('apply_patch')
  })
})

describe('sniffHost', () => {
  it('tells a rollout of either generation from a Claude Code transcript by the first line', () => {
    expect(
      sniffHost(`{"timestamp":"2026-12-02T01:28:33.947Z","ordinal":0,"type":"session_meta","payload":{"session_id":"${SID}","id":"${SID}","cwd":"/w`),
    ).toBe('codex')
    expect(sniffHost(`{"timestamp":"2026-06-18T00:57:05.559Z","type":"session_meta","payload":{"id":"${SID}","cwd":"/w/proj"}}`)).toBe('codex')
    expect(sniffHost(`{ "type": "response_item", "payload": {"type":"message"}, "timestamp": "x" }`)).toBe('codex')
    expect(sniffHost('{"type":"summary","summary":"Fix the parser","leafUuid":"u"}')).toBe('claude')
    expect(sniffHost('{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"cwd":"/p"}')).toBe('claude')
    expect(sniffHost('')).toBe('claude')
  })

  it("takes a rollout's session id from its file name, else from session_meta", () => {
    expect(codexSessionId(`/c/sessions/2026/12/02/rollout-2026-12-02T01-28-33-${SID}.jsonl`)).toBe(SID)
    expect(codexSessionId('/tmp/copy.jsonl', `{"timestamp":"t","type":"session_meta","payload":{"id":"${SID}","cwd":"/w"}}`)).toBe(SID)
    expect(codexSessionId('/tmp/copy.jsonl', '{"type":"user"}')).toBeUndefined()
  })
})

describe('findTranscript', () => {
  const meta = (cwd: string, id: string) =>
    `${JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { id, cwd, base_instructions: { text: 'x' } } })}\n`
  const uuid = (n: number) => `01a2345e-0000-7000-8000-00000000000${n}`

  function home(): string {
    const dir = tempDir('bm-codex-home-')
    const day = join(dir, 'sessions', '2026', '12', '02')
    mkdirSync(day, { recursive: true })
    mkdirSync(join(dir, 'archived_sessions'), { recursive: true })
    const put = (path: string, cwd: string, n: number, mtime: number) => {
      writeFileSync(path, meta(cwd, uuid(n)))
      utimesSync(path, mtime, mtime)
    }
    put(join(day, `rollout-2026-12-02T01-00-00-${uuid(1)}.jsonl`), '/w/proj', 1, 1_000)
    put(join(day, `rollout-2026-12-02T02-00-00-${uuid(2)}.jsonl`), '/w/other', 2, 3_000)
    put(join(dir, 'archived_sessions', `rollout-2026-11-30T09-00-00-${uuid(3)}.jsonl`), '/w/proj', 3, 2_000)
    return dir
  }

  it("finds a named session's rollout, archived ones included, under $CODEX_HOME", async () => {
    const dir = home()
    const found = await codexHost.findTranscript('/w/proj', uuid(3), { CODEX_HOME: dir })
    expect(found).toEqual({ path: join(dir, 'archived_sessions', `rollout-2026-11-30T09-00-00-${uuid(3)}.jsonl`), sessionId: uuid(3) })
    await expect(codexHost.findTranscript('/w/proj', uuid(9), { CODEX_HOME: dir })).rejects.toThrow(/no Codex rollout for session/)
  })

  it('without a session id, picks the most recently written rollout that started in the folder, and says so', async () => {
    const dir = home()
    const found = await codexHost.findTranscript('/w/proj', undefined, { CODEX_HOME: dir })
    expect(found.path).toBe(join(dir, 'archived_sessions', `rollout-2026-11-30T09-00-00-${uuid(3)}.jsonl`))
    expect(found.sessionId).toBe(uuid(3))
    expect(found.note).toMatch(/most recently written Codex rollout/)
    await expect(codexHost.findTranscript('/w/none', undefined, { CODEX_HOME: dir })).rejects.toThrow(/no Codex rollout of \/w\/none/)
  })

  it('looks in ~/.codex when CODEX_HOME is not set', async () => {
    const h = tempDir('bm-home-')
    await expect(codexHost.findTranscript('/w/proj', undefined, { HOME: h })).rejects.toThrow(
      new RegExp(`no Codex rollouts under ${join(h, '.codex', 'sessions')}`),
    )
  })

  it('keeps an injected context below the size Codex spills to a file, counted in UTF-8 bytes', () => {
    const lines = Array.from({ length: 800 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n')
    const out = (codexHost.inject('restore', lines) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(CODEX_CONTEXT_BYTES)
    expect(Buffer.byteLength(out)).toBeGreaterThan(CODEX_CONTEXT_BYTES - 60) // cut at a line end, not far before
    expect(out.endsWith('x'.repeat(40))).toBe(true)
    // Three bytes a character: 9,600 characters would be 28,800 bytes, and Codex would spill them.
    const wide = Array.from({ length: 400 }, () => '漢'.repeat(30)).join('\n')
    const cut = withinBytes(wide, CODEX_CONTEXT_BYTES)
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(CODEX_CONTEXT_BYTES)
    expect(cut.split('\n').length).toBe(Math.floor((CODEX_CONTEXT_BYTES + 1) / 91))
    expect(withinBytes('short', 10)).toBe('short')
  })
})

describe('codex exec by its command line (headless.ts)', () => {
  const BIN = '/n/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex'
  it.each([
    // The native binary as the npm shim starts it: the arguments as typed (seen with 0.171).
    [[BIN, '-c', 'model_verbosity=low', 'exec', '--dangerously-bypass-hook-trust', '-C', '/w', 'say hi'], true],
    [[BIN, 'exec', 'resume', '--last', 'go on'], true],
    [['codex', 'e', 'fix it'], true],
    [['codex', '--model=gpt-5.5', 'review'], true],
    [['/usr/bin/node', '/n/node_modules/.bin/codex', '-p', 'work', 'exec', 'x'], true],
    // The interactive CLI: no subcommand, a first prompt, resume/fork of the TUI, an option's value that reads "exec".
    [[BIN], false],
    [[BIN, 'exec the tests'], false],
    [[BIN, '-m', 'exec', 'fix it'], false],
    [[BIN, '--', 'exec'], false],
    [[BIN, 'resume', '--last'], false],
    [['codex', 'app-server', '--listen', 'unix://', '--managed-daemon'], false],
    // Not Codex at all: a shell, bookmark doctor's probe, a test runner.
    [['/usr/bin/node', '/p/bin/bookmark.cjs', 'doctor'], false],
    [['/bin/bash', '-c', 'exec x'], false],
    [[], false],
  ] as const)('%j -> %s', (argv, headless) => {
    expect(nonInteractiveArgs(argv)).toBe(headless)
  })
})
