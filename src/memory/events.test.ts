import { describe, expect, it } from 'vitest'
import { parseLine } from '../hosts/claude/lines.js'
import { type EventCarry, eventsOf, newCarry } from './events.js'

const src = { host: 'claude' as const, session: 's-1', transcript: '/t/s-1.jsonl' }
const env = { sessionId: 's-1', cwd: '/w/app', timestamp: '2026-01-02T03:04:05Z', isSidechain: false }
const assistant = (uuid: string, block: object) => ({ ...env, type: 'assistant', uuid, message: { id: uuid, role: 'assistant', content: [block] } })
const result = (uuid: string, id: string, content: string, extra: object = {}) => ({
  ...env,
  type: 'user',
  uuid,
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...extra }] },
})

function run(records: object[], carry: EventCarry = newCarry()) {
  return records.flatMap((r, i) => parseLine(JSON.stringify(r), i + 1).entries.flatMap((e) => eventsOf(e, src, carry)))
}

describe('eventsOf', () => {
  it('gives a command, its commit, a file change after its result, and an error', () => {
    const events = run([
      { ...env, type: 'user', uuid: 'u1', message: { role: 'user', content: 'commit the parser fix' } },
      assistant('a1', { type: 'tool_use', id: 't1', name: 'Edit', input: { file_path: '/w/app/src/parse.ts', old_string: 'a', new_string: 'b' } }),
      result('u2', 't1', 'ok'),
      assistant('a2', { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'git commit -m "fix the parser"' } }),
      result('u3', 't2', '[main 1a2b3c4] fix the parser\n 1 file changed'),
      assistant('a3', { type: 'tool_use', id: 't3', name: 'Bash', input: { command: 'npm test' } }),
      result('u4', 't3', 'Exit code 1\nFAIL parse.test.ts', { is_error: true }),
    ])
    expect(events.map((e) => [e.kind, e.line, e.text])).toEqual([
      ['request', 1, 'commit the parser fix'],
      ['file', 2, 'modified /w/app/src/parse.ts b'],
      ['command', 4, 'git commit -m "fix the parser"'],
      ['commit', 5, '1a2b3c4 fix the parser'],
      ['command', 6, 'npm test'],
      ['error', 7, 'Bash (npm test) failed: Exit code 1 FAIL parse.test.ts'],
    ])
    expect(events[1]).toMatchObject({ project: '/w/app', session: 's-1', host: 'claude', paths: ['/w/app/src/parse.ts'], tool: 'Edit' })
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
  })

  it('carries a call across reads, redacted, and gives every block of one line its own id', () => {
    const carry = newCarry()
    const secret = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`
    run(
      [assistant('a1', { type: 'tool_use', id: 't1', name: 'Bash', input: { command: `git push https://x:${secret}@github.com/o/r && git commit -m wip` } })],
      carry,
    )
    const kept = JSON.parse(JSON.stringify(carry)) as EventCarry
    expect(JSON.stringify(kept)).not.toContain(secret)
    const later = run([{}, result('u9', 't1', '[main abcdef1] wip')], kept)
    expect(later.map((e) => e.kind)).toEqual(['commit'])
    const two = run([
      {
        ...env,
        type: 'assistant',
        uuid: 'a',
        message: {
          id: 'a',
          role: 'assistant',
          content: [
            { type: 'text', text: 'one' },
            { type: 'tool_use', id: 'x', name: 'Glob', input: { pattern: '*.ts' } },
          ],
        },
      },
    ])
    expect(two.map((e) => e.kind)).toEqual(['reply', 'tool'])
    expect(two[0]!.id).not.toBe(two[1]!.id)
  })
})
