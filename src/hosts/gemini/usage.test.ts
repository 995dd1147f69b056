import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/tmp.js'
import { geminiHost } from './host.js'
import { compressionThreshold, geminiUsage, latestTokens, withoutComments } from './usage.js'

// Records in the shapes Gemini CLI 0.61 writes (host-samples/gemini-0.61-session-*.jsonl).
const meta = {
  sessionId: 'b8477778-1e6b-4fde-b1ac-6fabfa2cce57',
  projectHash: 'ab',
  startTime: '2026-12-02T01:23:11.275Z',
  lastUpdated: '2026-12-02T01:23:11.275Z',
  kind: 'main',
}
const context = { id: 'c0', timestamp: '2026-12-02T01:23:11.276Z', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.' }] }
const user = (id: string, text: string) => ({ id, timestamp: '2026-12-02T01:23:12.000Z', type: 'user', content: [{ text }], displayContent: [{ text }] })
const tokens = (input: number, cached = 0) => ({ input, output: 10, cached, thoughts: 0, tool: 0, total: input + 10 })
const reply = (id: string, input: number, extra: object = {}) => ({
  id,
  timestamp: `2026-12-02T01:23:1${id.length % 10}.500Z`,
  type: 'gemini',
  content: 'Done.',
  thoughts: [],
  tokens: tokens(input),
  model: 'gemini-3.8-flash',
  ...extra,
})
const touch = { $set: { lastUpdated: '2026-12-02T01:23:19.000Z' } }
const summary = {
  id: 's1',
  timestamp: '2026-12-02T01:24:00.000Z',
  type: 'user',
  content: [{ text: '<state_snapshot>\n<overall_goal>x</overall_goal>\n</state_snapshot>' }],
}
const ack = { id: 's2', timestamp: '2026-12-02T01:24:00.100Z', type: 'gemini', content: [{ text: 'Got it. Thanks for the additional context!' }] }

function chat(records: object[]): string {
  const dir = tempDir('bm-gem-usage-')
  const path = join(dir, 'session-2026-12-02T01-23-b8477778.jsonl')
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return path
}

function world(): { cwd: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir('bm-gem-world-')
  mkdirSync(join(dir, 'home', '.gemini'), { recursive: true })
  mkdirSync(join(dir, 'proj'))
  return { cwd: join(dir, 'proj'), env: { HOME: join(dir, 'home') } }
}

describe('Gemini context usage from the chat file (the check hook note)', () => {
  it("is the newest reply's input tokens (cached ones included), upserts read as their last write", async () => {
    const path = chat([
      meta,
      { $set: { messages: [context] } },
      user('u1', 'create hello.txt'),
      touch,
      reply('m1', 1_000),
      // The same reply written again with its calls, then a later one with the prompt grown, part of it cached.
      reply('m1', 1_000, { toolCalls: [{ id: 'write_file__1', name: 'write_file', args: {}, status: 'success' }] }),
      user('u2', 'how many "tokens" were used?'),
      { ...reply('m2', 402_000), tokens: tokens(402_000, 400_000) },
      touch,
      { id: 'i1', timestamp: '2026-12-02T01:23:20.000Z', type: 'info', content: 'SS-SYSMSG' },
      touch,
    ])
    const { cwd, env } = world()
    expect(await geminiUsage(path, cwd, env)).toEqual({ tokens: 402_000, model: 'gemini-3.8-flash', timestamp: '2026-12-02T01:23:12.500Z', window: 524_288 })
    // Through the host seam, as the check hook asks.
    expect(await geminiHost.usage!(path, cwd, env)).toMatchObject({ tokens: 402_000, window: 524_288 })
  })

  it('after a compression checkpoint nothing is measured until the next reply', async () => {
    const before = [meta, { $set: { messages: [context] } }, user('u1', 'fill context'), reply('m1', 900_000), touch]
    const compressed = [...before, { $set: { sessionId: meta.sessionId } }, { $set: { messages: [context, summary, ack] } }, touch]
    expect(await latestTokens(chat(before), 1 << 20)).toMatchObject({ tokens: 900_000 })
    expect(await latestTokens(chat(compressed), 1 << 20)).toBeUndefined()
    const next = [...compressed, user('u2', 'say hi'), reply('m2', 100), touch]
    expect(await latestTokens(chat(next), 1 << 20)).toMatchObject({ tokens: 100 })
  })

  it('a resume checkpoint (the whole history again) gives its newest reply', async () => {
    const path = chat([meta, { $set: { messages: [context, user('u1', 'create hello.txt'), reply('m1', 7_000), user('u2', 'next')] } }, touch])
    expect(await latestTokens(path, 1 << 20)).toMatchObject({ tokens: 7_000, model: 'gemini-3.8-flash' })
  })

  it('an older one-object .json session is read whole', async () => {
    const dir = tempDir('bm-gem-usage-')
    const path = join(dir, 'session-2025-11-03T10-00-faff42ab.json')
    const session = {
      ...meta,
      messages: [user('u1', 'write it'), reply('m1', 12_874), user('u2', 'again'), { ...reply('m2', 12_018), tokens: tokens(12_018, 11_769) }],
    }
    writeFileSync(path, JSON.stringify(session, null, 2))
    expect(await latestTokens(path, 1 << 20)).toMatchObject({ tokens: 12_018 })
    expect(await latestTokens(path, 100)).toBeUndefined() // above the read cap: not read at all
  })

  it('no usage: a chat without replies, or whose only long line does not fit in the bytes read', async () => {
    expect(await latestTokens(chat([meta, { $set: { messages: [context] } }, user('u1', 'hi')]), 1 << 20)).toBeUndefined()
    const long = chat([meta, reply('m1', 5_000, { content: 'x'.repeat(50_000) })])
    expect(await latestTokens(long, 20_000)).toBeUndefined()
    expect(await latestTokens(long, 1 << 20)).toMatchObject({ tokens: 5_000 })
  })

  it("the note's 100% is where Gemini compresses: the settings' compressionThreshold (workspace first), of the model's limit", async () => {
    const { cwd, env } = world()
    const userSettings = join(env.HOME!, '.gemini', 'settings.json')
    expect(await compressionThreshold(cwd, env)).toBe(0.5)
    writeFileSync(userSettings, '{\n  // lower, so it compresses sooner\n  "model": { "compressionThreshold": 0.3 },\n  "x": "a // b /* c"\n}\n')
    expect(await compressionThreshold(cwd, env)).toBe(0.3)
    mkdirSync(join(cwd, '.gemini'))
    writeFileSync(join(cwd, '.gemini', 'settings.json'), JSON.stringify({ model: { compressionThreshold: 0.2 } }))
    expect(await compressionThreshold(cwd, env)).toBe(0.2)
    // Gemini reads 0 as "the default": the next file decides.
    writeFileSync(join(cwd, '.gemini', 'settings.json'), JSON.stringify({ model: { compressionThreshold: 0 } }))
    expect(await compressionThreshold(cwd, env)).toBe(0.3)
    const gemma = chat([meta, reply('m1', 1_000, { model: 'gemma-4-31b-it' })])
    expect((await geminiUsage(gemma, cwd, env))?.window).toBe(76_800)
    // GEMINI_CLI_HOME moves the user's settings.
    expect(await compressionThreshold(cwd, { ...env, GEMINI_CLI_HOME: join(cwd, 'elsewhere') })).toBe(0.5)
  })

  it('comments go, strings stay', () => {
    expect(withoutComments('{"a": "x // y", /* z */ "b": 1 // c\n}')).toBe('{"a": "x // y",  "b": 1 \n}')
    expect(JSON.parse(withoutComments('{"a": "q\\" // not a comment"}'))).toEqual({ a: 'q" // not a comment' })
  })
})
