/**
 * The latest context usage of a session, read from the end of its transcript only (the check hook runs on
 * every prompt and must not read the whole file).
 */
import { isObject, str } from '../shared/json.js'
import { open } from '../shared/fsp.js'

export interface TailUsage {
  /** Tokens the latest main-thread request carried: input + cache read + cache creation. */
  tokens: number
  model?: string
  timestamp?: string
  /** The tokens that count as full, when the host says (Gemini: where it compresses); else guessed from the model. */
  window?: number
}

export async function latestUsage(path: string, maxBytes = 1024 * 1024): Promise<TailUsage | undefined> {
  const fh = await open(path, 'r')
  try {
    const { size } = await fh.stat()
    let window = Math.min(16 * 1024, size)
    for (;;) {
      const start = size - window
      const buf = Buffer.allocUnsafe(window)
      // Decoded once, then searched as a string (a window that starts inside a character spoils only its first
      // line, which is never read unless it is the file's first): fewer buffer calls, each compiled on first
      // use in a hook process, than finding the lines as bytes.
      const text = buf.toString('utf8', 0, (await fh.read(buf, 0, window, start)).bytesRead)
      for (let end = text.length; end > 0;) {
        const nl = text.lastIndexOf('\n', end - 1)
        if (nl < 0 && start > 0) break // the first piece may be the middle of a line
        const line = text.slice(nl + 1, end)
        end = nl
        if (!line.includes('"usage"')) continue
        const usage = usageOf(line)
        if (usage) return usage
      }
      if (window >= size || window >= maxBytes) return undefined
      window = Math.min(window * 4, size, maxBytes)
    }
  } finally {
    await fh.close()
  }
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/**
 * The usage of a line when it is a main-thread reply that parse.ts would turn into assistant entries (not a
 * sidechain, not an API error, with content): read here without the parser, which the check hook would
 * otherwise load on every prompt. tail.test.ts holds the two to the same answer on every corpus session.
 */
function usageOf(text: string): TailUsage | undefined {
  let r: unknown
  try {
    r = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!isObject(r) || r.type !== 'assistant' || r.isSidechain === true || r.isApiErrorMessage === true) return undefined
  const message = r.message
  if (!isObject(message) || !isObject(message.usage)) return undefined
  const model = str(message.model)
  const content = message.content
  if (model === '<synthetic>' || !(typeof content === 'string' || (Array.isArray(content) && content.some(isObject)))) return undefined
  const u = message.usage
  const timestamp = str(r.timestamp)
  return {
    tokens: count(u.input_tokens) + count(u.cache_read_input_tokens) + count(u.cache_creation_input_tokens),
    ...(model ? { model } : {}),
    ...(timestamp ? { timestamp } : {}),
  }
}

/**
 * Models whose context window is 1,000,000 tokens: `[1m]` variants, and the generation-5 models (Claude
 * Code 2.1.332 reports `contextWindow: 1000000` for its default `claude-opus-5-5`). Others: 200,000.
 * The transcript does not record the window; `contextWindow` in the config overrides this guess.
 */
const ONE_MILLION = /\[1m\]|-1m\b|claude-(opus|sonnet|haiku)-5\b|claude-(opus|sonnet|haiku)-5-/i

export function contextWindowFor(model: string | undefined, configured: number, tokens = 0): number {
  if (configured > 0) return configured
  if ((model && ONE_MILLION.test(model)) || tokens > 200_000) return 1_000_000
  return 200_000
}
