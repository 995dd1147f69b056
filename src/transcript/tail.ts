/**
 * The latest context usage of a session, read from the end of its transcript only (the check hook runs on
 * every prompt and must not read the whole file).
 */
import { open } from '../shared/fsp.js'
import { parseLine } from './parse.js'

export interface TailUsage {
  /** Tokens the latest main-thread request carried: input + cache read + cache creation. */
  tokens: number
  model?: string
  timestamp?: string
}

export async function latestUsage(path: string, maxBytes = 1024 * 1024): Promise<TailUsage | undefined> {
  const fh = await open(path, 'r')
  try {
    const { size } = await fh.stat()
    let window = Math.min(16 * 1024, size)
    for (;;) {
      const start = size - window
      const buf = Buffer.allocUnsafe(window)
      const data = buf.subarray(0, (await fh.read(buf, 0, window, start)).bytesRead)
      // Lines from the last one back, found and tested as bytes: only a line that names "usage" is decoded.
      for (let end = data.length; end > 0; ) {
        const nl = data.lastIndexOf(0x0a, end - 1)
        if (nl < 0 && start > 0) break // the first piece may be the middle of a line
        const line = data.subarray(nl + 1, end)
        end = nl
        if (line.indexOf(USAGE) === -1) continue
        for (const e of parseLine(line.toString('utf8'), 0).entries) {
          if (e.kind === 'assistant' && !e.sidechain && !e.apiError && e.usage) {
            const tokens = e.usage.input + e.usage.cacheRead + e.usage.cacheCreation
            return { tokens, ...(e.model ? { model: e.model } : {}), ...(e.timestamp ? { timestamp: e.timestamp } : {}) }
          }
        }
      }
      if (window >= size || window >= maxBytes) return undefined
      window = Math.min(window * 4, size, maxBytes)
    }
  } finally {
    await fh.close()
  }
}

const USAGE = Buffer.from('"usage"')

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
