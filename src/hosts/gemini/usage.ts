/**
 * How full a Gemini CLI session's context was at its latest model call, for the check hook's note: the `tokens` of
 * the newest `gemini` message of the chat file, read from the file's end only (the hook runs on every prompt).
 * `tokens.input` is the request's prompt tokens, cached ones included: the count Gemini compresses by. The note's
 * 100% is where Gemini compresses, `model.compressionThreshold` of the model's token limit, not the whole window:
 * at the default half, a note at 75% of the window would come after the compression it is meant to precede.
 */
import { join } from 'node:path'
import { open, readFile } from '../../shared/fsp.js'
import { type Json, isObject, parseJson, str } from '../../shared/json.js'
import { type TailUsage, type UsageReader, tailUsage } from '../../transcript/tail.js'
import { isJsonSession } from './read.js'
import { geminiDir } from './transcripts.js'

/** Gemini CLI 0.61's `tokenLimit`: 1,048,576 for every model but Gemma 4's two. */
export const GEMINI_TOKEN_LIMIT = 1_048_576
const GEMMA_4_LIMIT = 256_000
const GEMMA_4 = /^gemma-4-(31b|26b-a4b)-it$/

/** Gemini CLI's default `model.compressionThreshold`. */
export const DEFAULT_COMPRESSION_THRESHOLD = 0.5

export async function geminiUsage(path: string, cwd: string, env: NodeJS.ProcessEnv, maxBytes = 1024 * 1024): Promise<TailUsage | undefined> {
  const latest = await latestTokens(path, maxBytes)
  if (!latest) return undefined
  const limit = latest.model !== undefined && GEMMA_4.test(latest.model) ? GEMMA_4_LIMIT : GEMINI_TOKEN_LIMIT
  return { ...latest, window: Math.round(limit * (await compressionThreshold(cwd, env))) }
}

/** A `gemini` message's usage, when it recorded one. */
function usageOf(m: unknown): TailUsage | undefined {
  if (!isObject(m) || m.type !== 'gemini' || !isObject(m.tokens)) return undefined
  const input = m.tokens.input
  if (typeof input !== 'number' || !Number.isFinite(input)) return undefined
  const model = str(m.model)
  const timestamp = str(m.timestamp)
  return { tokens: input, ...(model ? { model } : {}), ...(timestamp ? { timestamp } : {}) }
}

/** The newest usage of a history (a checkpoint's, an older `.json` session's). */
function lastOf(messages: unknown[]): TailUsage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const u = usageOf(messages[i])
    if (u) return u
  }
  return undefined
}

/**
 * A chat file's line, newest first: a `$set.messages` checkpoint settles it (its newest usage, or none), a `gemini`
 * message with `tokens` gives its own.
 */
const geminiLines: UsageReader = {
  needles: ['"$set"', '"tokens"'],
  usageOf(line) {
    const r = parseJson(line)
    if (!isObject(r)) return undefined
    if (!line.includes('"$set"')) return usageOf(r)
    const messages = isObject(r.$set) ? (r.$set as Json).messages : undefined
    return Array.isArray(messages) ? (lastOf(messages) ?? null) : undefined
  },
}

/**
 * The newest usage of the chat file. A `$set.messages` checkpoint replaces the history: what it holds is the answer
 * (nothing after a compression, whose history is a summary: nothing was measured since, and the count is low again).
 */
export async function latestTokens(path: string, maxBytes: number): Promise<TailUsage | undefined> {
  const fh = await open(path, 'r')
  try {
    const { size } = await fh.stat()
    const head = Buffer.alloc(Math.min(size, 256))
    await fh.read(head, 0, head.length, 0)
    if (isJsonSession(head.toString('utf8'))) {
      if (size > maxBytes) return undefined
      const whole = Buffer.alloc(size)
      await fh.read(whole, 0, size, 0)
      const session = parseJson(whole.toString('utf8'))
      return isObject(session) && Array.isArray(session.messages) ? lastOf(session.messages) : undefined
    }
    return await tailUsage(fh, size, geminiLines, maxBytes)
  } finally {
    await fh.close()
  }
}

/** `model.compressionThreshold` from the workspace's settings, else the user's, else Gemini's default. */
export async function compressionThreshold(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  for (const file of [join(cwd, '.gemini', 'settings.json'), join(geminiDir(env), 'settings.json')]) {
    const text = await readFile(file, 'utf8').catch(() => undefined)
    if (text === undefined) continue
    const settings = parseJson(text) ?? parseJson(withoutComments(text))
    const model = isObject(settings) && isObject(settings.model) ? settings.model : undefined
    const t = model?.compressionThreshold
    // Gemini takes 0 (or nothing) as "the default".
    if (typeof t === 'number' && t > 0 && t <= 1) return t
  }
  return DEFAULT_COMPRESSION_THRESHOLD
}

/** The text without `//` and `/* *\/` comments outside strings (Gemini CLI reads its settings with comments allowed). */
export function withoutComments(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      out += text.slice(i, j + 1)
      i = j
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++
      out += '\n'
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2)
      i = close < 0 ? text.length : close + 1
    } else out += c
  }
  return out
}
