import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { assistantText, jsonl, prompt, toolResult, toolUse } from '../../test/helpers/jsonl.js'
import { CORPUS_PRESENT, claudeFiles, claudePath } from '../../test/helpers/corpus.js'
import { parseLine } from '../hosts/claude/lines.js'
import { claudeUsage } from '../hosts/claude/usage.js'
import { contextWindowFor, latestUsage } from './tail.js'

const dir = mkdtempSync(join(tmpdir(), 'bm-tail-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const file = (text: string): string => {
  const p = join(dir, `t${n++}.jsonl`)
  writeFileSync(p, text)
  return p
}

/** assistantText carries input 10 + cache read 1000 + cache creation 20. */
const TOKENS = 1030

describe('latestUsage: the usage of the last main-thread reply, read from the end of the file', () => {
  it('finds the last reply, skipping later lines without usage', async () => {
    const p = file(jsonl([prompt('hi'), assistantText('hello', { model: 'claude-opus-5-5' }), prompt('more'), toolResult('t1', 'x')]))
    expect(await latestUsage(p, claudeUsage)).toMatchObject({ tokens: TOKENS, model: 'claude-opus-5-5' })
  })

  it('skips sidechain replies and reads past a last line larger than the first window', async () => {
    const big = 'y'.repeat(200_000)
    const p = file(
      jsonl([
        assistantText('main', { model: 'claude-sonnet-4-5' }),
        assistantText('side', { sidechain: true, model: 'claude-haiku-4-5' }),
        toolUse('t1', 'Read', { file_path: '/x' }),
        toolResult('t1', big),
      ]),
    )
    // The tool_use line carries usage too (input 10, no cache): it is the last main-thread reply.
    expect(await latestUsage(p, claudeUsage)).toMatchObject({ tokens: 10, model: 'claude-sonnet-4-5' })
  })

  it('passes over a later sidechain reply and an API error', async () => {
    const p = file(
      jsonl([
        assistantText('main', { model: 'claude-sonnet-4-5' }),
        assistantText('side', { sidechain: true, model: 'claude-haiku-4-5' }),
        assistantText('x', { model: '<synthetic>' }),
      ]),
    )
    expect(await latestUsage(p, claudeUsage)).toMatchObject({ tokens: TOKENS, model: 'claude-sonnet-4-5' })
  })

  it('handles CRLF lines and a file without a trailing newline', async () => {
    const text = jsonl([prompt('a'), assistantText('b')])
      .trimEnd()
      .split('\n')
      .join('\r\n')
    expect(await latestUsage(file(text), claudeUsage)).toMatchObject({ tokens: TOKENS })
  })

  it('gives undefined when no reply is within the bytes it may read', async () => {
    expect(await latestUsage(file(jsonl([prompt('only a prompt')])), claudeUsage)).toBeUndefined()
    const p = file(jsonl([assistantText('early'), toolResult('t', 'z'.repeat(300_000))]))
    expect(await latestUsage(p, claudeUsage, 64 * 1024)).toBeUndefined()
    expect(await latestUsage(p, claudeUsage)).toMatchObject({ tokens: TOKENS })
  })
})

describe('contextWindowFor', () => {
  it('knows the 1M models, honours the configured window and what usage already shows', () => {
    expect(contextWindowFor('claude-opus-5-5', 0)).toBe(1_000_000)
    expect(contextWindowFor('claude-sonnet-4-5[1m]', 0)).toBe(1_000_000)
    expect(contextWindowFor('claude-sonnet-4-5', 0)).toBe(200_000)
    expect(contextWindowFor('claude-sonnet-4-5', 0, 250_000)).toBe(1_000_000)
    expect(contextWindowFor('claude-opus-5-5', 300_000)).toBe(300_000)
  })
})

describe.skipIf(!CORPUS_PRESENT)('latestUsage agrees with the parser on every corpus session', () => {
  it('gives the usage of the last main-thread reply parseLine finds', async () => {
    const files = claudeFiles().map(claudePath)
    expect(files.length).toBeGreaterThan(20)
    let withUsage = 0
    for (const path of files) {
      const text = readFileSync(path, 'utf8')
      let expected: { tokens: number; model?: string } | undefined
      text.split('\n').forEach((line, i) => {
        for (const e of parseLine(line, i + 1).entries) {
          if (e.kind === 'assistant' && !e.sidechain && !e.apiError && e.usage)
            expected = { tokens: e.usage.input + e.usage.cacheRead + e.usage.cacheCreation, ...(e.model ? { model: e.model } : {}) }
        }
      })
      const got = await latestUsage(path, claudeUsage, Buffer.byteLength(text) + 1)
      expect(got === undefined ? undefined : { tokens: got.tokens, ...(got.model ? { model: got.model } : {}) }, path).toEqual(expected)
      if (expected) withUsage++
    }
    expect(withUsage).toBeGreaterThan(20)
  })
})
