/**
 * The context usage of a Claude Code transcript line, for the check hook's tail read (transcript/tail.ts).
 */
import { isObject, parseJson, str } from '../../shared/json.js'
import type { TailUsage, UsageReader } from '../../transcript/tail.js'

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/**
 * The usage of a line when it is a main-thread reply that parse.ts would turn into assistant entries (not a
 * sidechain, not an API error, with content): read here without the parser, which the check hook would
 * otherwise load on every prompt. transcript/tail.test.ts holds the two to the same answer on every corpus session.
 */
function usageOf(text: string): TailUsage | undefined {
  const r = parseJson(text)
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

export const claudeUsage: UsageReader = { needles: ['"usage"'], usageOf }
