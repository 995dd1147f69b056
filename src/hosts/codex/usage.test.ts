import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CORPUS } from '../../../test/helpers/corpus.js'
import { contextWindowFor, latestUsage } from '../../transcript/tail.js'
import { codexHost } from './host.js'
import { codexUsage } from './usage.js'

const dir = mkdtempSync(join(tmpdir(), 'bm-codex-usage-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Lines in the shape Codex 0.171 writes them (host-samples rollouts): session_meta, an item, token counts. */
const line = (n: number, type: string, payload: object): string =>
  JSON.stringify({ timestamp: `2026-12-02T01:28:${String(n).padStart(2, '0')}.000Z`, ordinal: n, type, payload })
const tokenCount = (n: number, input: number, cached: number, window = 258_400): string =>
  line(n, 'event_msg', {
    type: 'token_count',
    info: {
      total_token_usage: { input_tokens: input * 2, cached_input_tokens: cached, output_tokens: 20, reasoning_output_tokens: 0, total_tokens: input * 2 + 20 },
      last_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: input + 10 },
      last_usage_includes_reasoning: false,
      model_context_window: window,
    },
    rate_limits: { limit_id: 'codex', primary: null, secondary: null },
  })

describe("the check hook's context usage from a Codex rollout", () => {
  it('is the last token_count: what the latest request carried (cached input is inside input_tokens) and the window Codex recorded', async () => {
    const p = join(dir, 'rollout.jsonl')
    writeFileSync(
      p,
      [
        line(0, 'session_meta', { id: 's', cwd: '/w/proj', cli_version: '0.171.0', originator: 'codex_exec' }),
        tokenCount(1, 90_000, 80_000),
        // Its usage record holds "usage", Claude Code's needle: not Codex's.
        line(2, 'token_usage_record', { usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1, total_tokens: 2 } }),
        tokenCount(3, 194_000, 150_000),
        // A rate-limit update without info, then the reply: neither says anything of the context.
        line(4, 'event_msg', { type: 'token_count', info: null, rate_limits: { limit_id: 'codex' } }),
        line(5, 'event_msg', { type: 'item_completed', item: { type: 'AgentMessage', id: 'm', content: [{ type: 'Text', text: 'Done.' }] } }),
      ].join('\n') + '\n',
    )
    const usage = await codexHost.usage!(p, '/proj', {})
    expect(usage).toEqual({ tokens: 194_000, window: 258_400, timestamp: '2026-12-02T01:28:03.000Z' })
    // 75% of Codex's own window: the guess from a model name (200,000) would have said 97%.
    expect(usage!.tokens / contextWindowFor(undefined, 0, usage!.tokens, usage!.window)).toBeCloseTo(0.751, 3)
    // The configured window still wins.
    expect(contextWindowFor(undefined, 400_000, usage!.tokens, usage!.window)).toBe(400_000)
  })

  it('says nothing for a rollout without a token count, nor for a Claude Code transcript', async () => {
    const p = join(dir, 'none.jsonl')
    writeFileSync(p, line(0, 'session_meta', { id: 's', cwd: '/w' }) + '\n')
    expect(await latestUsage(p, codexUsage)).toBeUndefined()
    const claude = join(dir, 'claude.jsonl')
    writeFileSync(
      claude,
      JSON.stringify({ type: 'assistant', message: { model: 'claude-opus-5-5', content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 5 } } }) + '\n',
    )
    expect(await latestUsage(claude, codexUsage)).toBeUndefined()
  })
})

const ROLLOUTS = [join(CORPUS, 'codex'), join(CORPUS, 'host-samples')].flatMap((d) =>
  existsSync(d)
    ? readdirSync(d)
        .filter((n) => /^codex-.*\.jsonl$/.test(n) && !n.includes('hook-log'))
        .map((n) => join(d, n))
    : [],
)

describe.skipIf(ROLLOUTS.length === 0)('on every Codex rollout of the corpus', () => {
  it("agrees with the last token_count read as plain JSON, and with the extraction's figure from the parser", async () => {
    let counted = 0
    for (const path of ROLLOUTS) {
      const text = readFileSync(path, 'utf8')
      let expected: { tokens: number; window?: number } | undefined
      let parsed: number | undefined
      text.split('\n').forEach((l, i) => {
        if (l.trim() === '') return
        const r = JSON.parse(l) as {
          type?: string
          payload?: { type?: string; info?: { last_token_usage?: { input_tokens: number }; model_context_window?: number } }
        }
        const info = r.type === 'event_msg' && r.payload?.type === 'token_count' ? r.payload.info : undefined
        if (info?.last_token_usage)
          expected = { tokens: info.last_token_usage.input_tokens, ...(info.model_context_window ? { window: info.model_context_window } : {}) }
        for (const e of codexHost.parseLine(l, i + 1).entries) if (e.kind === 'assistant' && e.usage) parsed = e.usage.input + e.usage.cacheRead
      })
      const got = await latestUsage(path, codexUsage, Buffer.byteLength(text) + 1)
      expect(got === undefined ? undefined : { tokens: got.tokens, ...(got.window ? { window: got.window } : {}) }, path).toEqual(expected)
      expect(got?.tokens, path).toBe(parsed)
      if (expected) counted++
    }
    expect(counted).toBeGreaterThanOrEqual(10)
  })
})
