/**
 * The context usage of a Codex rollout line, for the check hook's tail read (transcript/tail.ts): the
 * `event_msg/token_count` record both rollout generations write after each model response, with the window.
 */
import { isObject, parseJson, str } from '../../shared/json.js'
import type { TailUsage, UsageReader } from '../../transcript/tail.js'

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0)

/**
 * `last_token_usage.input_tokens` is what the latest request carried (OpenAI counts cached input inside it, so
 * it is the same figure lines.ts gives the extraction as input + cache read). A token_count without `info`
 * (a rate-limit update) says nothing of the context.
 */
function usageOf(text: string): TailUsage | undefined {
  const r = parseJson(text)
  if (!isObject(r) || r.type !== 'event_msg' || !isObject(r.payload) || r.payload.type !== 'token_count') return undefined
  const info = r.payload.info
  if (!isObject(info) || !isObject(info.last_token_usage)) return undefined
  const window = count(info.model_context_window)
  const timestamp = str(r.timestamp)
  return {
    tokens: count(info.last_token_usage.input_tokens),
    ...(window > 0 ? { window } : {}),
    ...(timestamp ? { timestamp } : {}),
  }
}

export const codexUsage: UsageReader = { needles: ['"token_count"'], usageOf }
