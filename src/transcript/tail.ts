/**
 * The latest context usage of a session, read from the end of its transcript only (the check hook runs on
 * every prompt and must not read the whole file). Which line holds it, and how it reads, is the host's
 * (`Host.usage`: hosts/claude/usage.ts, hosts/codex/usage.ts).
 */
import { type FileHandle, open } from '../shared/fsp.js'

export interface TailUsage {
  /** Tokens the latest main-thread request carried (Claude Code: input + cache read + cache creation). */
  tokens: number
  model?: string
  timestamp?: string
  /** The tokens that count as full, when the host says (Codex: its `model_context_window`; Gemini: where it compresses). */
  window?: number
}

/**
 * How a host's transcript line gives its usage: only lines containing one of `needles` are parsed. `usageOf` gives
 * the line's usage, `null` when the line settles that there is none (Gemini's history replaced by a compression),
 * or undefined to read on to older lines.
 */
export interface UsageReader {
  needles: readonly string[]
  usageOf(line: string): TailUsage | null | undefined
}

export async function latestUsage(path: string, reader: UsageReader, maxBytes = 1024 * 1024): Promise<TailUsage | undefined> {
  const fh = await open(path, 'r')
  try {
    return await tailUsage(fh, (await fh.stat()).size, reader, maxBytes)
  } finally {
    await fh.close()
  }
}

/** latestUsage on a file already open, `size` bytes long. */
export async function tailUsage(fh: FileHandle, size: number, reader: UsageReader, maxBytes = 1024 * 1024): Promise<TailUsage | undefined> {
  const { needles } = reader
  const wanted = (line: string): boolean => {
    for (const n of needles) if (line.includes(n)) return true
    return false
  }
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
      if (!wanted(line)) continue
      const usage = reader.usageOf(line)
      if (usage !== undefined) return usage ?? undefined
    }
    if (window >= size || window >= maxBytes) return undefined
    window = Math.min(window * 4, size, maxBytes)
  }
}

/**
 * Models whose context window is 1,000,000 tokens: `[1m]` variants, and the generation-5 models (Claude
 * Code 2.1.332 reports `contextWindow: 1000000` for its default `claude-opus-5-5`). Others: 200,000.
 * Claude Code's transcript does not record the window (Codex's does: `recorded`); `contextWindow` in the
 * config overrides both.
 */
const ONE_MILLION = /\[1m\]|-1m\b|claude-(opus|sonnet|haiku)-5\b|claude-(opus|sonnet|haiku)-5-/i

export function contextWindowFor(model: string | undefined, configured: number, tokens = 0, recorded?: number): number {
  if (configured > 0) return configured
  if (recorded !== undefined && recorded > 0) return recorded
  if ((model && ONE_MILLION.test(model)) || tokens > 200_000) return 1_000_000
  return 200_000
}
