/**
 * The latest context usage of a session, read from the end of its transcript only (the check hook runs on
 * every prompt and must not read the whole file).
 */
import { open } from 'node:fs/promises'
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
    let window = Math.min(64 * 1024, size)
    for (;;) {
      const start = size - window
      const buf = Buffer.alloc(window)
      await fh.read(buf, 0, window, start)
      const lines = buf.toString('utf8').split('\n')
      if (start > 0) lines.shift() // the first piece may be the middle of a line
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i]!
        if (!line.includes('"usage"')) continue
        for (const e of parseLine(line, 0).entries) {
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

/** The context window of a model: `[1m]` variants and models that report 1M get 1,000,000; else 200,000. */
export function contextWindowFor(model: string | undefined, configured: number): number {
  if (configured > 0) return configured
  if (model && /\[1m\]|-1m\b/i.test(model)) return 1_000_000
  return 200_000
}
