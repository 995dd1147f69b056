import { describe, expect, it } from 'vitest'
import { fake, ghp } from '../../../test/helpers/fake-secrets.js'
import { isHeadless, parsePayload } from './payload.js'

describe('parsePayload notes about an invalid payload', () => {
  // Each payload holds a secret-looking value where JSON.parse's own message would quote it.
  const secret = `${ghp}${fake('abcdef0123456789', 8)}`
  const n = secret.length
  const cases: Array<[string, string, string]> = [
    ['starts with a token', secret, `hook payload is not JSON (${n} characters; it does not start with {)`],
    ['a token where a value belongs', `{"session_id": ${secret}}`, `hook payload is not JSON (${n + 16} characters; an unexpected character inside it)`],
    ['a token after the object', `{"cwd": "/x"} ${secret}`, `hook payload is not JSON (${n + 14} characters; invalid at character 15)`],
    ['cut inside a string', `{"prompt": "${secret}`, `hook payload is not JSON (${n + 12} characters; it ends before its JSON does)`],
    ['ends after a comma', `{"prompt": "${secret}",`, `hook payload is not JSON (${n + 14} characters; it ends before its JSON does)`],
    ['an array', `["${secret}"]`, 'hook payload is not a JSON object: got an array'],
    ['a string', `"${secret}"`, 'hook payload is not a JSON object: got a string'],
  ]

  it.each(cases)('%s: says what was wrong without quoting the payload', (_name, text, note) => {
    const { notes } = parsePayload(text, false)
    expect(notes).toEqual([note])
    for (const n of notes) expect(n).not.toContain(secret.slice(0, 8))
  })

  it('still recovers the plain fields of a broken payload', () => {
    const { payload, notes } = parsePayload(`{"session_id": "s1", "cwd": "/p", "prompt": ${secret}`, false)
    expect(payload).toEqual({ session_id: 's1', cwd: '/p' })
    expect(notes.join('\n')).not.toContain(secret.slice(0, 8))
  })
})

describe('isHeadless: the hook environment Claude Code 2.1.332 sets (docs/HEADLESS.md)', () => {
  it.each<[string, NodeJS.ProcessEnv, boolean]>([
    ['claude -p', { CLAUDE_CODE_SESSION_ATTENDED: '0', CLAUDE_CODE_ENTRYPOINT: 'sdk-cli' }, true],
    ['interactive terminal', { CLAUDE_CODE_SESSION_ATTENDED: '1', CLAUDE_CODE_ENTRYPOINT: 'cli' }, false],
    ['an attended app built on the SDK: the attended verdict wins', { CLAUDE_CODE_SESSION_ATTENDED: '1', CLAUDE_CODE_ENTRYPOINT: 'sdk-ts' }, false],
    ['an unattended IDE-style entrypoint', { CLAUDE_CODE_SESSION_ATTENDED: '0', CLAUDE_CODE_ENTRYPOINT: 'claude-vscode' }, true],
    ['no attended verdict, TypeScript SDK', { CLAUDE_CODE_ENTRYPOINT: 'sdk-ts' }, true],
    ['no attended verdict, Python SDK', { CLAUDE_CODE_ENTRYPOINT: 'sdk-py' }, true],
    ['no attended verdict, terminal', { CLAUDE_CODE_ENTRYPOINT: 'cli' }, false],
    ['nothing set (an older host, or the hook run by hand)', {}, false],
    ['an unexpected attended value falls back to the entrypoint', { CLAUDE_CODE_SESSION_ATTENDED: 'yes', CLAUDE_CODE_ENTRYPOINT: 'cli' }, false],
  ])('%s', (_name, env, headless) => {
    expect(isHeadless(env)).toBe(headless)
  })
})
