/**
 * Which host wrote a transcript, from its first line, and a Codex rollout's session id. Pure: the caller reads
 * the line (a rollout's first line is its `session_meta`, tens of kilobytes of instructions; its head is enough).
 */
import type { HostId } from '../host.js'
import { isGeminiChat } from '../gemini/sniff.js'

/** Codex's record types; a Claude Code line has `type` user, assistant, summary … and no `payload`. */
const CODEX_TYPES =
  /^\{\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*(?:"ordinal"\s*:\s*\d+\s*,\s*)?"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context|compacted|world_state)"/

/**
 * Tells a Codex rollout or a Gemini CLI chat from a Claude Code transcript by its first line (or its head: an
 * older Gemini session needs a few lines); Claude Code when unsure.
 */
export function sniffHost(firstLine: string): HostId {
  const head = firstLine.trimStart()
  if (CODEX_TYPES.test(head)) return 'codex'
  if (isGeminiChat(head)) return 'gemini'
  try {
    const r = JSON.parse(head) as unknown
    if (typeof r === 'object' && r !== null && !Array.isArray(r)) {
      const rec = r as Record<string, unknown>
      if (typeof rec.payload === 'object' && rec.payload !== null && /^(session_meta|response_item|event_msg|turn_context|compacted)$/.test(String(rec.type))) {
        return 'codex'
      }
    }
  } catch {
    // a head cut inside the line: the pattern above was the test
  }
  return 'claude'
}

const ROLLOUT = /rollout-\d{4}-\d\d-\d\dT\d\d[-:]\d\d[-:]\d\d-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i
const META_ID = /"type"\s*:\s*"session_meta"\s*,\s*"payload"\s*:\s*\{[^{}]*?"id"\s*:\s*"([^"]{1,200})"/

/** A rollout's session id: from its file name (`rollout-<time>-<uuid>.jsonl`), else its `session_meta` head. */
export function codexSessionId(path: string, firstLine?: string): string | undefined {
  const fromName = ROLLOUT.exec(path)?.[1]
  if (fromName) return fromName
  return firstLine !== undefined ? META_ID.exec(firstLine)?.[1] : undefined
}
